import { loadConfig } from '../config/load-config.ts';
import { appVersion } from '../config/version.ts';
import { explainError } from '../db/database-error.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { HELP } from './usage.ts';
import { UsageError } from './usage-error.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const COMMANDS = ['serve', 'migrate', 'backup', 'keys', 'accounts', 'ids'];

/** The help text a command line asks for (`help keys`, `keys --help`, `keys revoke -h`), or null when it asks for none. */
function helpFor(argv: string[]): string | null {
  const wantsHelp = argv.some((arg) => arg === '--help' || arg === '-h');
  const words = argv.filter((arg) => !arg.startsWith('-'));
  if (words[0] === 'help') return topic(words.slice(1));
  if (argv.length === 0) return HELP[''] ?? null;
  return wantsHelp ? topic(words) : null;
}

/** The help of the longest command `words` begin with (`keys create`, then `keys`), or null: none. */
function helpOf(words: string[]): string | null {
  for (let n = Math.min(words.length, 2); n > 0; n--) {
    const text = HELP[words.slice(0, n).join(' ')];
    if (text) return text;
  }
  return null;
}

function topic(words: string[]): string {
  const text = helpOf(words);
  if (text) return text;
  if (words.length > 0) throw new UsageError(`no help for '${words.join(' ')}'`);
  return HELP[''] ?? '';
}

/** Runs one command line; resolves with the exit code (0 unless the command says otherwise). */
async function run(argv: string[]): Promise<number | undefined> {
  if (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version') {
    const { name, version, revision } = appVersion();
    out(`${name} ${version} (revision ${revision})`);
    return;
  }
  const help = helpFor(argv);
  if (help !== null) {
    out(help);
    return;
  }
  const [command = '', ...args] = argv;
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown command '${command}'`);

  const config = loadConfig();
  // Each command loads only what it needs: help and keys start in a fraction of the server's time.
  if (command === 'serve') {
    const { serve } = await import('../server.ts');
    await serve(config);
    return;
  }
  const [
    { openDatabase },
    { migrateToLatest },
    { migrateCommand },
    { backupCommand },
    { keysCommand },
    { accountsCommand },
    { idsCommand },
  ] = await Promise.all([
    import('../db/connection.ts'),
    import('../db/migrate.ts'),
    import('./migrate-command.ts'),
    import('./backup-command.ts'),
    import('./keys-command.ts'),
    import('./accounts-command.ts'),
    import('./ids-command.ts'),
  ]);
  const database = openDatabase(config.database);
  const { db } = database;
  try {
    await database.check();
    if (command === 'migrate') return await migrateCommand(database.migrations, args, out);
    // A backup copies the database as it is, migrated or not; ids advance on whatever tables it has.
    if (command === 'backup') await backupCommand(database, args, out);
    else if (command === 'ids') await idsCommand(database, args, out);
    else {
      // keys and accounts migrate as the server does, or refuse as it does (MIGRATE_ON_START=false).
      const { db: migrating, ...where } = database.migrations;
      await migrateToLatest(migrating, { apply: config.migrateOnStart, ...where });
      await (command === 'accounts' ? accountsCommand : keysCommand)(db, args, out);
    }
    return undefined;
  } finally {
    await database.close();
  }
}

/** Runs the CLI; errors become one clear line and an exit code (2 for a wrong command line, else 1), never a stack. */
export async function runCli(argv: string[]): Promise<void> {
  try {
    process.exitCode = (await run(argv)) ?? EXIT_CODES.ok;
  } catch (error) {
    const usage =
      error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
    const message = explainError(error);
    // A wrong command line gets the help of the command it names (`keys create` without --account: keys create's), else the general one.
    const help = usage ? (helpOf(argv.filter((arg) => !arg.startsWith('-'))) ?? HELP[''] ?? '') : '';
    process.stderr.write(usage ? `petstore: ${message}\n\n${help}\n` : `petstore: ${message}\n`);
    process.exitCode = usage ? EXIT_CODES.usage : EXIT_CODES.failed;
  }
}
