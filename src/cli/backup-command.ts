import { parseArgs } from 'node:util';
import type { OpenDatabase } from '../db/connection.ts';
import { UsageError } from './usage-error.ts';

/** `petstore backup PATH`: a consistent copy of the SQLite database in a new file, while servers keep serving. */
export async function backupCommand(database: OpenDatabase, args: string[], out: (line: string) => void): Promise<void> {
  const { positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true });
  const [target, ...extra] = positionals;
  if (!target || extra.length > 0) throw new UsageError('backup needs one PATH: the new file to write');
  const started = Date.now();
  await database.backup(target);
  out(`Backed up ${database.label} to ${target} in ${Date.now() - started} ms.`);
}
