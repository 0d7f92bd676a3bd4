import { ConfigError, loadConfig } from '../config/load-config.ts';
import { openDatabase } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { AppError } from '../errors/index.ts';
import { serve } from '../main.ts';
import { keysCommand } from './keys-command.ts';
import { USAGE } from './usage.ts';
import { UsageError } from './usage-error.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);

async function run(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    out(USAGE);
    return;
  }
  if (!['serve', 'migrate', 'keys'].includes(command)) throw new UsageError(`unknown command '${command}'`);

  const config = loadConfig();
  if (command === 'serve') {
    await serve(config);
    return;
  }
  const db = openDatabase(config.databaseUrl);
  try {
    const { applied } = await migrateToLatest(db);
    if (command === 'migrate') {
      out(applied.length > 0 ? `Applied ${applied.length} migration(s): ${applied.join(', ')}.` : 'The database is up to date.');
      return;
    }
    await keysCommand(db, args, out);
  } finally {
    await db.destroy();
  }
}

/** Runs the CLI; errors become one clear line and an exit code, never a stack. */
export async function runCli(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (error) {
    if (error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`petstore: ${error.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError || error instanceof AppError) {
      process.stderr.write(`petstore: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`petstore: ${message}\n`);
      process.exitCode = 1;
    }
  }
}
