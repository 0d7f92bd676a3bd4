import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database } from '../types.ts';

/**
 * An account's Idempotency-Key forgotten if it was claimed before `before` (an ISO time); the
 * key comes back when it was. The age is checked in the statement, not only by its caller: a
 * request that found the old row may be second to another that already replaced it.
 */
export const forgetExpiredIdempotencyKey = preparedQuery((db: Kysely<Database>, accountId: number, key: string, before: string) =>
  db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '<', before)
    .returning('key'),
);
