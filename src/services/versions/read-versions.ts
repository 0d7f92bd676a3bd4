import type { ExpressionBuilder, Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/types.ts';
import type { KeyRefusal } from '../api-keys/key-states.ts';

/** What an answer can be read from: the pets everyone sees, and the caller's own orders and messages. */
export type VersionedTable = 'pets' | 'orders' | 'messages';

/** Each versioned table's version, as the caller sees it, as of one read. */
export type Versions = Readonly<Record<VersionedTable, string>>;

// The three versions as subqueries of one statement, beside the caller's standing.
const versionColumns = (eb: ExpressionBuilder<Database, never>, orders: string, messages: string) =>
  [
    eb.selectFrom('table_versions').select('version').where('name', '=', 'pets').as('pets'),
    eb.selectFrom('table_versions').select('version').where('name', '=', orders).as('orders'),
    eb.selectFrom('table_versions').select('version').where('name', '=', messages).as('messages'),
  ] as const;

// One statement, no table of its own: the versions and the key's standing as subqueries.
const readRow = preparedQuery((db: Kysely<Database>, orders: string, messages: string, keyId: number) =>
  db.selectNoFrom((eb) => [
    ...versionColumns(eb, orders, messages),
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
);

// The same for an access token, which has no row of its own: the account's standing.
const readRowForAccount = preparedQuery((db: Kysely<Database>, orders: string, messages: string, accountId: number) =>
  db.selectNoFrom((eb) => [
    ...versionColumns(eb, orders, messages),
    eb
      .selectFrom('accounts')
      .select((account) => account.case().when('accounts.disabled_at', 'is not', null).then('disabled').else('usable').end().as('standing'))
      .where('accounts.id', '=', accountId)
      .as('standing'),
  ]),
);

/**
 * The versions the caller's answers are read under, in one statement with whether the calling
 * key (or, for an access token, its account) still works: why not, once it was revoked (or
 * deleted) or its account disabled, by this instance or any other. A cached answer is served only under versions read after every write
 * acknowledged before the request came, and never to a key that no longer works, whatever the
 * key cache still believes: the request itself is refused.
 */
export async function readVersions(
  db: Kysely<Database>,
  principal: { keyId: number | null; accountId: number },
): Promise<Versions | KeyRefusal> {
  const orders = `orders:${principal.accountId}`;
  const messages = `messages:${principal.accountId}`;
  const [row] =
    principal.keyId === null
      ? await readRowForAccount(db, orders, messages, principal.accountId)
      : await readRow(db, orders, messages, principal.keyId);
  const standing = row?.standing ?? 'revoked';
  if (standing === 'revoked' || standing === 'disabled') return standing;
  // No row: the account never wrote one, itself a state (nothing), distinct from every random value.
  return { pets: String(row?.pets ?? 'none'), orders: String(row?.orders ?? 'none'), messages: String(row?.messages ?? 'none') };
}
