import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';

export interface AccountState {
  name: string;
  disabledAt: string | null;
  /** False when the account already was as asked: nothing changed. */
  changed: boolean;
}

/**
 * Disables an account (every key of it is refused; running servers see it within the key
 * verifier's bound) or enables it again. Its keys are kept, so enabling restores them.
 */
export async function setAccountDisabled(db: Kysely<Database>, name: string, disabled: boolean): Promise<AccountState> {
  const row = await db.selectFrom('accounts').select(['id', 'disabled_at']).where('name', '=', name).executeTakeFirst();
  if (!row) throw AppError.of('ACCOUNT_NOT_FOUND', 'byName', { name });
  if ((row.disabled_at !== null) === disabled) return { name, disabledAt: row.disabled_at, changed: false };
  const disabledAt = disabled ? new Date().toISOString() : null;
  await db.updateTable('accounts').set({ disabled_at: disabledAt }).where('id', '=', row.id).execute();
  return { name, disabledAt, changed: true };
}
