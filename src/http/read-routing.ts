import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { ReadReplicas } from '../db/postgres/read-replicas.ts';
import type { Database } from '../db/types.ts';
import type { Exchange } from './exchange.ts';
import type { MaybePromise } from './maybe-promise.ts';
import { requestPathRedis } from './redis-client.ts';
import { guardRedis } from './redis-guard.ts';
import { GRAPHQL_ROUTE, MCP_ROUTE } from './route-config.ts';

declare module 'fastify' {
  interface FastifyRequest {
    access: Exchange['access'];
    reads: Exchange['reads'];
  }
}

/**
 * The longest a write is taken to run before its answer leaves: an account's mark outlives a write
 * that never says it ended (its instance gone) by this, then the bound. Past every timeout a
 * request can meet (statement, lock, the request's own).
 */
const WRITE_RUNS_MS = 120_000;

/** How long a mark waits on Redis, judged by Redis (redis-deadline.ts); then the primary is read. */
const MARK_WAIT_MS = 100;

/**
 * Whether an account wrote recently enough that a replica may not show it yet. A write marks its
 * account before it runs (`writing`: until it ends, however long) and again once its answer has
 * left (`settled`: for `markMs`, the replicas' bound and a margin, from then); reads of a marked
 * account go to the primary. A replica is trusted only when it has replayed what the primary had
 * `maxLag` ago (db/postgres/read-replicas.ts), so once a mark has lapsed, every replica still
 * trusted shows the write: read-your-writes without carrying a WAL position anywhere.
 */
export interface WriteMarks {
  /** True while the account's reads must go to the primary; also when that cannot be known (Redis away). */
  marked(accountId: number): MaybePromise<boolean>;
  writing(accountId: number): MaybePromise<void>;
  settled(accountId: number): void;
  close(): Promise<void>;
}

/** Marks this process keeps: enough for one instance, or for several when each account's requests reach one. */
export function localWriteMarks(markMs: number): WriteMarks & { local: Map<number, { pending: number; until: number }> } {
  const local = new Map<number, { pending: number; until: number }>();
  return {
    local,
    marked(accountId) {
      const mark = local.get(accountId);
      if (!mark) return false;
      if (mark.pending > 0 || mark.until > performance.now()) return true;
      local.delete(accountId);
      return false;
    },
    writing(accountId) {
      const mark = local.get(accountId);
      const until = performance.now() + WRITE_RUNS_MS + markMs;
      if (mark) {
        mark.pending++;
        mark.until = Math.max(mark.until, until);
      } else local.set(accountId, { pending: 1, until });
    },
    settled(accountId) {
      const mark = local.get(accountId);
      if (!mark) return;
      mark.pending = Math.max(0, mark.pending - 1);
      // Not shortened while another write of the account runs.
      if (mark.pending === 0) mark.until = performance.now() + markMs;
    },
    close: async () => undefined,
  };
}

// A count of the account's writes running, expiring WRITE_RUNS_MS (and the bound) after the last began.
const WRITING = `local n = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
// The last running write ended: the mark lapses the bound (and margin) from now; others running keep it.
const SETTLED = `local n = redis.call('DECR', KEYS[1])
if n <= 0 then redis.call('SET', KEYS[1], 0, 'PX', ARGV[1]) end
return n`;
// Marked: the account's mark, or every account's (\`unmarked\`: writes whose marks may be missing).
// A Redis without the \`marks\` key is new, or was emptied: it may have lost marks, so every
// account counts as marked for the bound from now.
const MARKED = `if redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('SET', KEYS[3], 1)
  redis.call('SET', KEYS[2], 1, 'PX', ARGV[1])
  return 1
end
if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then return 1 end
return 0`;

type MarkCommands = Redis & {
  petstoreWriting(key: string, ms: number): Promise<number>;
  petstoreSettled(key: string, ms: number): Promise<number>;
  petstoreMarked(key: string, unmarked: string, marks: string, ms: number): Promise<number>;
};

/**
 * Marks every instance sees, in Redis (\`<prefix>wrote:<account>\`), kept here too. While Redis
 * does not answer this instance, its reads are all taken as marked (the primary answers them).
 * Marks that may have been lost mark every account for the bound: when Redis is new or was
 * emptied (no \`<prefix>marks\` key), and when this instance reaches it again after its marks
 * failed to get there (\`<prefix>unmarked\`).
 */
export function redisWriteMarks(
  { url, keyPrefix }: { url: string; keyPrefix: string },
  markMs: number,
  log: FastifyBaseLogger,
): WriteMarks {
  const local = localWriteMarks(markMs);
  const redis = requestPathRedis(url, { keyPrefix, answerWithinMs: MARK_WAIT_MS }) as MarkCommands;
  redis.defineCommand('petstoreWriting', { numberOfKeys: 1, lua: WRITING });
  redis.defineCommand('petstoreSettled', { numberOfKeys: 1, lua: SETTLED });
  redis.defineCommand('petstoreMarked', { numberOfKeys: 3, lua: MARKED });
  // Set when a mark may not have reached Redis; told to every instance once it answers again.
  let unsent = false;
  const unmarkAll = () => {
    redis.set('unmarked', 1, 'PX', markMs).then(
      () => void (unsent = false),
      () => undefined,
    );
  };
  let connections = 0;
  redis.on('ready', () => {
    // A connection lost and made again: a mark sent meanwhile may not have arrived.
    if (connections++ > 0) unsent = true;
    if (unsent) unmarkAll();
  });
  let failing = false;
  const failed = (error: unknown) => {
    guard.failed(error);
    if (!failing) log.warn({ err: error }, 'read replicas: Redis is not answering; every read goes to the primary until it does');
    failing = true;
  };
  const guard = guardRedis(redis, {
    onDown: failed,
    onUp: () => {
      if (unsent) unmarkAll();
      if (failing) log.info('read replicas: Redis answers again');
      failing = false;
    },
  });
  const key = (accountId: number) => `wrote:${accountId}`;
  return {
    marked(accountId) {
      if (local.marked(accountId) || !guard.usable()) return true;
      return redis.petstoreMarked(key(accountId), 'unmarked', 'marks', markMs).then(
        (found) => found === 1,
        (error: unknown) => {
          failed(error);
          return true;
        },
      );
    },
    writing(accountId) {
      local.writing(accountId);
      const noMark = (error: unknown) => {
        unsent = true;
        failed(error);
      };
      if (!guard.usable()) return noMark(new Error('Redis is away'));
      return redis.petstoreWriting(key(accountId), WRITE_RUNS_MS + markMs).then(() => undefined, noMark);
    },
    settled(accountId) {
      local.settled(accountId);
      if (guard.usable()) {
        redis.petstoreSettled(key(accountId), markMs).catch((error: unknown) => {
          unsent = true;
          failed(error);
        });
      } else unsent = true;
    },
    async close() {
      guard.close();
      redis.disconnect();
    },
  };
}

/** Where an exchange's reads go: the primary, or a replica current enough for it. */
export interface ReadRouting {
  replicas: ReadReplicas;
  marks: WriteMarks;
  primary: Kysely<Database>;
  /** Told of each read-only exchange's choice. */
  onChoice(source: 'replica' | 'primary'): void;
}

const routings = new WeakMap<Kysely<Database>, ReadRouting>();

/** Sends the reads of exchanges served from `primary` through `routing` (app.ts, when DATABASE_READ_URLS names replicas). */
export function routeReads(routing: ReadRouting): void {
  routings.set(routing.primary, routing);
}

/** The routing of `db`'s reads, if it has replicas. */
export function readRoutingOf(db: Kysely<Database>): ReadRouting | null {
  return routings.get(db) ?? null;
}

/**
 * The database an exchange's reads run on. A write, and anything not known to be a read (a
 * subscription, a request no route matched), reads the primary; an Idempotency-Key request its
 * own transaction. A read of an account that has not written within the bound goes to a replica
 * at most the bound behind (one for the whole exchange, so its versions and its rows agree), or
 * to the primary when none is. Chosen once, at the first read, and kept on the exchange.
 */
export function readDb(exchange: Exchange, db: Kysely<Database>): MaybePromise<Kysely<Database>> {
  if (exchange.idempotency) return exchange.idempotency.db;
  if (exchange.reads) return exchange.reads;
  const routing = routings.get(db);
  if (!routing || exchange.access !== 'read' || !exchange.principal) return db;
  const replica = routing.replicas.pick();
  if (!replica) return choose(routing, exchange, routing.primary);
  const marked = routing.marks.marked(exchange.principal.accountId);
  if (typeof marked === 'boolean') return choose(routing, exchange, marked ? routing.primary : replica);
  return marked.then((wrote) => choose(routing, exchange, wrote ? routing.primary : replica));
}

function choose(routing: ReadRouting, exchange: Exchange, db: Kysely<Database>): Kysely<Database> {
  routing.onChoice(db === routing.primary ? 'primary' : 'replica');
  exchange.reads = db;
  return db;
}

/**
 * What each HTTP exchange does to the data, where its method says (REST, and GraphQL over GET,
 * which runs queries alone): a write marks its account before its handler and again once its
 * answer has left, whether it succeeded or not (a failed write may have committed part of itself
 * elsewhere: marking costs a few primary reads). POST /graphql and /mcp are decided by the
 * operation they run (graphql/http/run-graphql.ts).
 */
export function useReadRouting(app: FastifyInstance, routing: ReadRouting): void {
  routeReads(routing);
  app.addHook('preHandler', (request, _reply, done) => {
    const route = request.routeOptions.url;
    if (request.principal === null || route === undefined || route === MCP_ROUTE) return done();
    if (request.method === 'GET' || request.method === 'HEAD') {
      request.access = 'read';
      return done();
    }
    if (route === GRAPHQL_ROUTE) return done();
    request.access = 'write';
    const writing = routing.marks.writing(request.principal.accountId);
    if (writing instanceof Promise) writing.then(() => done(), done);
    else done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.access === 'write' && request.principal) routing.marks.settled(request.principal.accountId);
    done();
  });
}
