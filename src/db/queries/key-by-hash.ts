import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database } from '../types.ts';

/**
 * A key by the hash of the whole key, not its public prefix: an unknown prefix and a known
 * prefix with a wrong secret are then the same index miss, so timing cannot tell which prefixes
 * exist. Its account comes along: a disabled account's keys are refused like revoked ones.
 */
export const keyByHash = preparedQuery((db: Kysely<Database>, keyHash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'api_keys.account_id', 'api_keys.revoked_at', 'api_keys.scopes', 'accounts.disabled_at'])
    .where('api_keys.key_hash', '=', keyHash),
);
