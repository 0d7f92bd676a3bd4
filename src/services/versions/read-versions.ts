import { sql } from 'kysely';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/types.ts';
import type { KeyRefusal } from '../api-keys/key-states.ts';

/**
 * The tables answers are read from, each with whose version it keeps: everyone's (`pets`), or
 * each account's (`orders:<account>`, `messages:<account>`, the caller's own rows). A table here
 * must have triggers that move its version on every insert, update and delete (migrations 0010
 * and 0011); test/db/table-versions.test.ts checks them on both engines. Everything else (the
 * versions read, the cache's keys, the ETags) is built from this list.
 */
export const VERSIONED_TABLES = { pets: 'shared', orders: 'per-account', messages: 'per-account' } as const;

/** What an answer can be read from. */
export type VersionedTable = keyof typeof VERSIONED_TABLES;

/** Each versioned table's version, as the caller sees it, as of one read. */
export type Versions = Readonly<Record<VersionedTable, string>>;

const TABLES = Object.keys(VERSIONED_TABLES) as VersionedTable[];

// Each versioned table's version as a subquery of one statement, beside the caller's standing.
// The account's id as text: SQLite's driver binds a number as a real, which would print as '5.0'.
const versionColumns = (eb: ExpressionBuilder<Database, never>, accountId: string) =>
  TABLES.map((table) =>
    eb
      .selectFrom('table_versions')
      .select('version')
      .where('name', '=', VERSIONED_TABLES[table] === 'shared' ? table : sql<string>`${`${table}:`} || cast(${accountId} as text)`)
      .as(table),
  );

// One statement, no table of its own: the versions and the key's standing as subqueries.
const readRow = preparedQuery((db: Kysely<Database>, accountId: string, keyId: number) =>
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
);

// The same for an access token, which has no row of its own: the account's standing.
const readRowForAccount = preparedQuery((db: Kysely<Database>, accountText: string, accountId: number) =>
  db.selectNoFrom((eb) => [
    ...versionColumns(eb, accountText),
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
  const [row] =
    principal.keyId === null
      ? await readRowForAccount(db, String(principal.accountId), principal.accountId)
      : await readRow(db, String(principal.accountId), principal.keyId);
  const standing = row?.standing ?? 'revoked';
  if (standing === 'revoked' || standing === 'disabled') return standing;
  // No row: the account never wrote one, itself a state (nothing), distinct from every random value.
  const found = (row ?? {}) as Partial<Record<VersionedTable, unknown>>;
  return Object.fromEntries(TABLES.map((table) => [table, String(found[table] ?? 'none')])) as Record<VersionedTable, string>;
}
