import { AppError } from '../../errors/index.ts';

/**
 * Readiness: the database runs a statement as requests run theirs (src/db's probe: parameters,
 * and on PostgreSQL the statement and lock timeouts in force), else NOT_READY. A database that
 * only accepts connections is not ready.
 */
export async function checkDatabase(probe: () => Promise<void>): Promise<void> {
  try {
    await probe();
  } catch (error) {
    throw new AppError('NOT_READY', { cause: error });
  }
}
