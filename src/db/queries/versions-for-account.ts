import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import { whileUnchanged } from '../unchanged-reads.ts';
import type { Database } from '../types.ts';
import { versionColumns } from './version-columns.ts';

/** The same as versions-for-key.ts for an access token, which has no row of its own: the account's standing. */
export const versionsForAccount = whileUnchanged(
  preparedQuery((db: Kysely<Database>, accountText: string, accountId: number) =>
    db.selectNoFrom((eb) => [
      ...versionColumns(eb, accountText),
      eb
        .selectFrom('accounts')
        .select((account) =>
          account.case().when('accounts.disabled_at', 'is not', null).then('disabled').else('usable').end().as('standing'),
        )
        .where('accounts.id', '=', accountId)
        .as('standing'),
    ]),
  ),
);
