import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database } from '../types.ts';

/** The answer a claimed Idempotency-Key gives its retries, kept in its row. */
export const keepIdempotentAnswer = preparedQuery(
  (db: Kysely<Database>, accountId: number, key: string, status: number, body: string, location: string | null) =>
    db
      .updateTable('idempotency_keys')
      .set({ status_code: status, response_body: body, location })
      .where('account_id', '=', accountId)
      .where('key', '=', key),
);
