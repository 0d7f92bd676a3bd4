import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database } from '../types.ts';

/**
 * An Idempotency-Key's claim: its row, inserted unless the account holds the key already (then
 * no row comes back). ON CONFLICT rather than catching the violation: on PostgreSQL a failed
 * statement aborts the transaction the claim is made in.
 */
export const claimIdempotencyKey = preparedQuery(
  (db: Kysely<Database>, accountId: number, key: string, fingerprint: string, createdAt: string) =>
    db
      .insertInto('idempotency_keys')
      .values({ account_id: accountId, key, fingerprint, created_at: createdAt })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .returning('key'),
);
