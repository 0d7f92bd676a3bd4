import type { Kysely } from 'kysely';
import { versionsForAccount } from '../../db/queries/versions-for-account.ts';
import { versionsForKey } from '../../db/queries/versions-for-key.ts';
import type { Database } from '../../db/types.ts';
import { VERSIONED_TABLE_NAMES } from '../../db/versioned-tables.ts';
import type { VersionedTable } from '../../db/versioned-tables.ts';
import type { KeyRefusal } from '../api-keys/key-states.ts';

/** Each versioned table's version, as the caller sees it, as of one read. */
export type Versions = Readonly<Record<VersionedTable, string>>;

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
      ? await versionsForAccount(db, String(principal.accountId), principal.accountId)
      : await versionsForKey(db, String(principal.accountId), principal.keyId);
  const standing = row?.standing ?? 'revoked';
  if (standing === 'revoked' || standing === 'disabled') return standing;
  // No row: the account never wrote one, itself a state (nothing), distinct from every random value.
  const found = (row ?? {}) as Partial<Record<VersionedTable, unknown>>;
  return Object.fromEntries(VERSIONED_TABLE_NAMES.map((table) => [table, String(found[table] ?? 'none')])) as Record<
    VersionedTable,
    string
  >;
}
