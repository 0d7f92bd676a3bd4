import { createHash } from 'node:crypto';
import type { ControlledTransaction, Kysely } from 'kysely';
import { DatabaseError } from '../../db/database-error.ts';
import { claimIdempotencyKey } from '../../db/queries/claim-idempotency-key.ts';
import { forgetExpiredIdempotencyKey } from '../../db/queries/forget-expired-idempotency-key.ts';
import { idempotencyKeyByName } from '../../db/queries/idempotency-key-by-name.ts';
import { keepIdempotentAnswer } from '../../db/queries/keep-idempotent-answer.ts';
import { purgeIdempotencyKeys } from '../../db/queries/purge-idempotency-keys.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';

/** Keys are kept this long; a key older than this is new again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What the first request produced, kept to give a retry: its status, its body, and where what it created lives. */
export interface StoredResult {
  status: number;
  body: string;
  resourcePath: string | null;
}

/**
 * A first request holding its key. Its work runs in `db`, one transaction with the key's
 * claim, so the work and the answer kept for retries commit together or not at all: a
 * process killed half-way leaves neither, and a retry runs as if it were the first.
 */
export interface IdempotentRun {
  readonly db: Kysely<Database>;
  /** False once committed or rolled back. */
  readonly open: boolean;
  /** Keeps `result` for retries and commits it with the work. */
  finish(result: StoredResult): Promise<void>;
  /** Rolls back the work and the claim. */
  abort(): Promise<void>;
}

export type IdempotencyStart = { kind: 'first'; run: IdempotentRun } | { kind: 'replay'; result: StoredResult };

/** What a request is, for telling a retry from another request: its route and its parsed body. */
export interface RequestFingerprint {
  /** Kept with the key: the body's members in a fixed order, so a retry that orders them otherwise is the same request. */
  canonical: string;
  /** As earlier releases kept it (the members in the order sent): a retry across an upgrade is still known. */
  asSent: string;
}

export function requestFingerprint(route: string, body: unknown): RequestFingerprint {
  const hash = (text: string) => createHash('sha256').update(route).update('\n').update(text).digest('hex');
  return { canonical: hash(canonicalJson(body ?? null)), asSent: hash(JSON.stringify(body ?? null)) };
}

/** JSON with every object's members sorted by name, at every depth: equal for equal values. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const members = Object.keys(value)
    .filter((name) => (value as Record<string, unknown>)[name] !== undefined)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
  return `{${members.join(',')}}`;
}

/** Keys claimed before this ISO time are forgotten. */
const expiredBefore = (now: Date): string => new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();

/** How often an instance forgets day-old keys of every account. */
const IDEMPOTENCY_PURGE_INTERVAL_MS = 60 * 1000;

/** When each database's day-old keys were last purged from here (a process has one or two databases). */
const lastPurge = new WeakMap<Kysely<Database>, number>();

/**
 * Forgets every key older than a day, at most once a minute per database. The purge is a
 * statement of its own (on PostgreSQL a pooled connection and a round trip): run on every keyed
 * write, it was four tenths of one's latency there and a sixth of its CPU (docs/performance.md).
 * Between purges a day-old key is still forgotten exactly: the claim finds it and replaces it
 * (startIdempotent).
 */
async function purgeNowAndThen(db: Kysely<Database>, now: Date): Promise<void> {
  const last = lastPurge.get(db);
  if (last !== undefined && now.getTime() - last < IDEMPOTENCY_PURGE_INTERVAL_MS && now.getTime() >= last) return;
  // Marked before the statement, so concurrent requests do not all purge at once.
  lastPurge.set(db, now.getTime());
  // A claim is committed only with its answer (finish) or not at all (abort rolls it back), so
  // every kept row is finished: only age removes one.
  await purgeIdempotencyKeys(db, expiredBefore(now));
}

function openRun(trx: ControlledTransaction<Database>, accountId: number, key: string): IdempotentRun {
  let open = true;
  const end = async (step: () => Promise<void>) => {
    if (!open) return;
    open = false;
    await step();
  };
  return {
    db: trx,
    get open() {
      return open;
    },
    finish: (result) =>
      end(async () => {
        await keepIdempotentAnswer(trx, accountId, key, result.status, result.body, result.resourcePath);
        await trx.commit().execute();
      }),
    abort: () => end(() => trx.rollback().execute()),
  };
}

/**
 * Claims `key` for this request, or finds what it already answered. The claim is a row with
 * a unique key, inserted in the transaction the request's work will run in: a second request
 * with the key waits at the claim until the first commits (then it gets the replay) or rolls
 * back (then it runs). One that would wait longer than the database's lock timeout gets
 * IDEMPOTENCY_KEY_IN_USE.
 */
export async function startIdempotent(
  db: Kysely<Database>,
  accountId: number,
  key: string,
  fingerprint: RequestFingerprint,
  now = new Date(),
): Promise<IdempotencyStart> {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw AppError.of('VALIDATION_FAILED', 'idempotencyKeyForm');
  }
  await purgeNowAndThen(db, now);
  for (;;) {
    const trx = await db.startTransaction().execute();
    try {
      const [claimed] = await claimIdempotencyKey(trx, accountId, key, fingerprint.canonical, now.toISOString());
      if (claimed) return { kind: 'first', run: openRun(trx, accountId, key) };
      const [row] = await idempotencyKeyByName(trx, accountId, key);
      // A day-old key the purge has not reached yet is new again: forget it and claim it here.
      const expired = expiredBefore(now);
      const dayOld = row !== undefined && row.created_at < expired;
      if (dayOld) {
        await forgetExpiredIdempotencyKey(trx, accountId, key, expired);
        const [reclaimed] = await claimIdempotencyKey(trx, accountId, key, fingerprint.canonical, now.toISOString());
        if (reclaimed) return { kind: 'first', run: openRun(trx, accountId, key) };
      }
      await trx.rollback().execute();
      // The holder released its key between our two statements, or another request renewed the
      // day-old key first: claim again.
      if (!row || dayOld) continue;
      if (row.fingerprint !== fingerprint.canonical && row.fingerprint !== fingerprint.asSent) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      if (row.status_code === null || row.response_body === null) throw new AppError('IDEMPOTENCY_KEY_IN_USE');
      return { kind: 'replay', result: { status: row.status_code, body: row.response_body, resourcePath: row.location } };
    } catch (error) {
      if (!trx.isCommitted && !trx.isRolledBack) await trx.rollback().execute();
      // Waited at the claim past the lock timeout: the first request with this key is still running.
      if (error instanceof DatabaseError && error.kind === 'busy') throw new AppError('IDEMPOTENCY_KEY_IN_USE', { cause: error });
      throw error;
    }
  }
}
