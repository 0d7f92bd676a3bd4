import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';

export async function checkDatabase(db: Kysely<Database>): Promise<void> {
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    throw new AppError('NOT_READY', { cause: error });
  }
}
