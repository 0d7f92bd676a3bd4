import type pg from 'pg';
import type { Kysely } from 'kysely';
import type { Database } from '../types.ts';

/** How often the primary's WAL position and each replica's replay position are read. */
export const REPLICA_POLL_MS = 250;

/**
 * How wide the window is in which the primary's position `maxLag` ago is looked for; also what a
 * write's mark outlives the bound by (http/read-routing.ts), so that a sample in the window was
 * taken after the write committed. Four polls fit in it, so a slow poll or two still leave one.
 */
export const REPLICA_MARGIN_MS = 1_000;

/** A replica as the instance last found it, for metrics and logs. */
export interface ReplicaState {
  /** host:port/database, never a password. */
  name: string;
  /** Whether it answers reads now: reachable, still a standby, and at most the bound behind. */
  usable: boolean;
  /** Bytes of WAL it has yet to replay, as of its last answer; null: never answered. */
  lagBytes: number | null;
}

/** The read replicas of one primary, each judged every REPLICA_POLL_MS. */
export interface ReadReplicas {
  /** How long after a write its account reads the primary: the bound a replica is judged by (DATABASE_READ_MAX_LAG_MS) plus REPLICA_MARGIN_MS (http/read-routing.ts). */
  readonly markMs: number;
  /** A replica at most `maxLagMs` behind the primary now (in turn, when several are), or null: read the primary. */
  pick(): Kysely<Database> | null;
  /** Each replica as last judged: for metrics. */
  states(): ReplicaState[];
  /** Who is told when a replica starts or stops answering reads (the log); one at a time. */
  onChange(listener: (state: ReplicaState) => void): void;
  close(): Promise<void>;
}

export interface Replica {
  name: string;
  pool: pg.Pool;
  db: Kysely<Database>;
}

/** PostgreSQL's `X/Y` (two hex halves of a 64-bit WAL position) as one number. */
export function walPosition(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

interface Sample {
  /** performance.now() when the question was sent: the answer is the position at that time or later. */
  at: number;
  position: bigint;
}

interface Seen {
  replica: Replica;
  /** Its replay position at its last answer, and when it was asked. */
  replayed: bigint | null;
  answeredAt: number;
  /** Its connection broke since: passed over until it answers a poll again. */
  broken: boolean;
  standby: boolean;
}

/**
 * Judges each replica by the primary's own clock, not by timestamps two hosts wrote: the primary's
 * WAL position is read every poll and kept with when it was asked, and a replica is current enough
 * when it has replayed at least the position the primary had `maxLagMs` ago (a sample from the
 * window [now − maxLag − margin, now − maxLag]). So a replica is never trusted on an old answer
 * (replay only moves forward, so an old answer only understates it), nor while the samples are
 * missing (the primary away, or this process too busy to ask): then every read goes to the
 * primary. A replica that is no longer a standby (promoted) serves nothing: it has left the
 * primary's history.
 */
export function watchReplicas(
  primary: pg.Pool,
  replicas: Replica[],
  { maxLagMs }: { maxLagMs: number },
): ReadReplicas & {
  /** A replica's connection broke: it is passed over until a poll finds it answering again. */
  broke(replica: Replica): void;
} {
  const samples: Sample[] = [];
  const seen: Seen[] = replicas.map((replica) => ({ replica, replayed: null, answeredAt: -Infinity, broken: false, standby: false }));
  // Each starts passed over: the first change told is its first "answering".
  const usable = new Map<Seen, boolean>(seen.map((one) => [one, false]));
  let told: (state: ReplicaState) => void = () => undefined;

  const target = (now: number): bigint | null => {
    // The newest sample no later than now − maxLag, if it is no older than the window.
    for (let i = samples.length - 1; i >= 0; i--) {
      const sample = samples[i] as Sample;
      if (sample.at <= now - maxLagMs) return sample.at >= now - maxLagMs - REPLICA_MARGIN_MS ? sample.position : null;
    }
    // None that old yet (the first `maxLag` after start): the oldest, which is later, asks for more.
    return samples[0]?.position ?? null;
  };
  const judge = (one: Seen, now: number, needed: bigint | null): boolean =>
    needed !== null &&
    !one.broken &&
    one.standby &&
    one.replayed !== null &&
    one.answeredAt >= now - 4 * REPLICA_POLL_MS &&
    one.replayed >= needed;

  const stateOf = (one: Seen, now: number): ReplicaState => {
    const newest = samples.at(-1);
    return {
      name: one.replica.name,
      usable: judge(one, now, target(now)),
      lagBytes: one.replayed === null || !newest ? null : Math.max(0, Number(newest.position - one.replayed)),
    };
  };

  let turn = 0;
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    const asked = performance.now();
    await Promise.all([
      primary.query<{ position: string }>('select pg_current_wal_lsn()::text as position').then(
        ({ rows }) => {
          samples.push({ at: asked, position: walPosition(rows[0]?.position ?? '0/0') });
          // Keep what the window can still ask for.
          while ((samples[0]?.at ?? Infinity) < asked - maxLagMs - 2 * REPLICA_MARGIN_MS) samples.shift();
        },
        // The primary away, or promoting: no sample, and soon no replica is trusted.
        () => undefined,
      ),
      ...seen.map((one) =>
        one.replica.pool
          .query<{ standby: boolean; replayed: string | null }>(
            'select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed',
          )
          .then(
            ({ rows }) => {
              const row = rows[0];
              one.standby = row?.standby === true;
              one.replayed = row?.replayed ? walPosition(row.replayed) : null;
              one.answeredAt = asked;
              one.broken = false;
            },
            () => undefined,
          ),
      ),
    ]);
    polling = false;
    const now = performance.now();
    for (const one of seen) {
      const state = stateOf(one, now);
      if (usable.get(one) !== state.usable) told(state);
      usable.set(one, state.usable);
    }
  };
  const timer = setInterval(() => void poll(), REPLICA_POLL_MS);
  timer.unref();
  void poll();

  return {
    markMs: maxLagMs + REPLICA_MARGIN_MS,
    pick() {
      const now = performance.now();
      const needed = target(now);
      // Round robin over those current enough: each is within the bound, so any will do.
      for (let tried = 0; tried < seen.length; tried++) {
        const one = seen[(turn = (turn + 1) % seen.length)] as Seen;
        if (judge(one, now, needed)) return one.replica.db;
      }
      return null;
    },
    broke(replica) {
      const one = seen.find((candidate) => candidate.replica === replica);
      if (one) one.broken = true;
    },
    states: () => seen.map((one) => stateOf(one, performance.now())),
    onChange: (listener) => void (told = listener),
    async close() {
      clearInterval(timer);
      for (const { db } of replicas) await db.destroy();
    },
  };
}
