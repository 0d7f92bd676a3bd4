import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database } from '../types.ts';

/** What an account's Idempotency-Key holds: the request it was claimed for, when, and, once finished, its answer. */
export const idempotencyKeyByName = preparedQuery((db: Kysely<Database>, accountId: number, key: string) =>
  db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response_body', 'location', 'created_at'])
    .where('account_id', '=', accountId)
    .where('key', '=', key),
);
