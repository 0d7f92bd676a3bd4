import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import { whileUnchanged } from '../unchanged-reads.ts';
import type { Database } from '../types.ts';
import { versionColumns } from './version-columns.ts';

/** One statement, no table of its own: the versions the account's answers are read under, and the key's standing. */
export const versionsForKey = whileUnchanged(
  preparedQuery((db: Kysely<Database>, accountId: string, keyId: number) =>
    db.selectNoFrom((eb) => [
      ...versionColumns(eb, accountId),
      eb
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .select((key) =>
          key
            .case()
            .when('api_keys.revoked_at', 'is not', null)
            .then('revoked')
            .when('accounts.disabled_at', 'is not', null)
            .then('disabled')
            .else('usable')
            .end()
            .as('standing'),
        )
        .where('api_keys.id', '=', keyId)
        .as('standing'),
    ]),
  ),
);
