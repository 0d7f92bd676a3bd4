import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/** Which of `accountIds` are disabled (or gone): one query, however many. */
export async function disabledAccounts(db: Kysely<Database>, accountIds: readonly number[]): Promise<Set<number>> {
  const disabled = new Set<number>();
  if (accountIds.length === 0) return disabled;
  const ids = [...new Set(accountIds)];
  const rows = await db.selectFrom('accounts').select(['id', 'disabled_at']).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row.disabled_at]));
  for (const id of ids) if (!byId.has(id) || byId.get(id) !== null) disabled.add(id);
  return disabled;
}
