import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { requestPathRedis } from '../redis-client.ts';
import { guardRedis } from '../redis-guard.ts';
import type { ResponseStore, StoreBounds, StoredAnswer } from './response-store.ts';

/**
 * Keeps one answer within the store's bounds, atomically, whatever every instance keeps at the
 * same time. Each answer is counted by an estimate of what Redis holds for it (its text, its key
 * twice in the indexes, and a fixed overhead); an index of every answer (`index`, by when it was
 * kept) and one per account (`account:<id>`) say what to let go first: what has expired, then the
 * account's oldest while the account is over its share, then the oldest of all while the store is
 * over its bound. So the store never grows past its bound, and Redis never has to evict anything
 * for it (rate-limit counters beside it included). Members are `<account> <bytes> <key>`.
 *
 * KEYS: the answer's key, index, bytes, account:<id>, account-bytes:<id>
 * ARGV: the answer, ttl ms, bytes, now ms, max bytes, max account bytes, account id, key prefix, member
 */
const KEEP = `
local prefix = ARGV[8]
local function drop(member)
  local account, bytes, key = string.match(member, '^(%d+) (%d+) (.+)$')
  redis.call('DEL', prefix .. key)
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZREM', prefix .. 'account:' .. account, member)
  redis.call('DECRBY', KEYS[3], bytes)
  redis.call('DECRBY', prefix .. 'account-bytes:' .. account, bytes)
end
local ttl, bytes, now = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl, 'LIMIT', 0, 100)) do drop(member) end
while tonumber(redis.call('GET', KEYS[5]) or '0') + bytes > tonumber(ARGV[6]) do
  local oldest = redis.call('ZRANGE', KEYS[4], 0, 0)[1]
  if not oldest then break end
  drop(oldest)
end
while tonumber(redis.call('GET', KEYS[3]) or '0') + bytes > tonumber(ARGV[5]) do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not oldest then break end
  drop(oldest)
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], now, ARGV[9])
redis.call('ZADD', KEYS[4], now, ARGV[9])
redis.call('INCRBY', KEYS[3], bytes)
redis.call('INCRBY', KEYS[5], bytes)
-- The indexes outlive every answer they name, and go when nothing has been kept for a while.
for i = 2, 5 do redis.call('PEXPIRE', KEYS[i], ttl * 2) end
return 1
`;

/** What Redis holds for an answer beyond its text: the key, its two index entries, their bookkeeping. */
const OVERHEAD_BYTES = 256;

interface KeepCommand {
  petstoreKeep(...args: (string | number)[]): Promise<number>;
}

export interface RedisResponseStoreOptions extends StoreBounds {
  url: string;
  /** Keys are `<prefix>rc:<key>`, beside the rate limiter's `<prefix>rl:`. */
  keyPrefix: string;
  log: FastifyBaseLogger;
}

/** How long a command may wait for Redis before the query runs as if nothing were kept. */
const LOOKUP_WAIT_MS = 100;

/**
 * Answers shared by every instance, within `maxBytes` in all and `maxAccountBytes` per account,
 * which the store enforces itself (KEEP above): Redis's own eviction is never needed, so it never
 * picks a rate-limit counter to make room for an answer. Redis is a saving, never a dependency:
 * when it does not answer, a lookup is a miss and keeping is skipped; one warning when it stops,
 * one line when it comes back.
 */
export function redisResponseStore({ url, keyPrefix, ttlMs, maxBytes, maxAccountBytes, log }: RedisResponseStoreOptions): ResponseStore {
  const prefix = `${keyPrefix}rc:`;
  const redis = requestPathRedis(url, { keyPrefix: prefix, answerWithinMs: LOOKUP_WAIT_MS }) as Redis & KeepCommand;
  redis.defineCommand('petstoreKeep', { numberOfKeys: 5, lua: KEEP });
  let failing = false;
  const failed = (error: unknown) => {
    guard.failed(error);
    if (!failing) log.warn({ err: error }, 'response cache: Redis is not answering; queries run uncached until it does');
    failing = true;
    return undefined;
  };
  const answered = () => {
    if (failing) log.info('response cache: Redis answers again');
    failing = false;
  };
  // A hung Redis costs a request nothing once found: lookups miss and nothing is kept until a ping is answered.
  const guard = guardRedis(redis, { onDown: failed, onUp: answered });
  return {
    async get(key) {
      if (!guard.usable()) return undefined;
      try {
        const text = await redis.get(key);
        answered();
        return text === null ? undefined : (JSON.parse(text) as StoredAnswer);
      } catch (error) {
        return failed(error);
      }
    },
    async set(key, answer, accountId) {
      const text = JSON.stringify(answer);
      const bytes = text.length + 3 * key.length + OVERHEAD_BYTES;
      if (bytes > maxAccountBytes || !guard.usable()) return;
      try {
        await redis.petstoreKeep(
          key,
          'index',
          'bytes',
          `account:${accountId}`,
          `account-bytes:${accountId}`,
          text,
          ttlMs,
          bytes,
          Date.now(),
          maxBytes,
          maxAccountBytes,
          accountId,
          prefix,
          `${accountId} ${bytes} ${key}`,
        );
        answered();
      } catch (error) {
        failed(error);
      }
    },
    async bytes() {
      if (!guard.usable()) return 0;
      try {
        return Number((await redis.get('bytes')) ?? 0);
      } catch {
        return 0;
      }
    },
    close: async () => {
      guard.close();
      redis.disconnect();
    },
  };
}
