import { readFileSync } from 'node:fs';
import { loadConfig } from '../config/load-config.ts';
import { HELP } from './usage.ts';
import { UsageError } from './usage-error.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const COMMANDS = ['serve', 'migrate', 'keys', 'accounts'];

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  return `${manifest.name} ${manifest.version}`;
}

/** The help text a command line asks for (`help keys`, `keys --help`, `keys revoke -h`), or null when it asks for none. */
function helpFor(argv: string[]): string | null {
  const wantsHelp = argv.some((arg) => arg === '--help' || arg === '-h');
  const words = argv.filter((arg) => !arg.startsWith('-'));
  if (words[0] === 'help') return topic(words.slice(1));
  if (argv.length === 0) return HELP[''] ?? null;
  return wantsHelp ? topic(words) : null;
}

function topic(words: string[]): string {
  for (let n = Math.min(words.length, 2); n > 0; n--) {
    const text = HELP[words.slice(0, n).join(' ')];
    if (text) return text;
  }
  if (words.length > 0) throw new UsageError(`no help for '${words.join(' ')}'`);
  return HELP[''] ?? '';
}

async function run(argv: string[]): Promise<void> {
  if (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version') {
    out(version());
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
  const [{ openDatabase }, { migrateToLatest }, { keysCommand }, { accountsCommand }] = await Promise.all([
    import('../db/connection.ts'),
    import('../db/migrate.ts'),
    import('./keys-command.ts'),
    import('./accounts-command.ts'),
  ]);
  const database = openDatabase(config.database);
  const { db } = database;
  try {
    await database.check();
    const { applied } = await migrateToLatest(db);
    if (command === 'migrate') {
      out(applied.length > 0 ? `Applied ${applied.length} migration(s): ${applied.join(', ')}.` : 'The database is up to date.');
      return;
    }
    await (command === 'accounts' ? accountsCommand : keysCommand)(db, args, out);
  } finally {
    await db.destroy();
  }
}

/** Runs the CLI; errors become one clear line and an exit code (2 for a wrong command line, else 1), never a stack. */
export async function runCli(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (error) {
    const usage =
      error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(usage ? `petstore: ${message}\n\n${HELP[''] ?? ''}\n` : `petstore: ${message}\n`);
    process.exitCode = usage ? 2 : 1;
  }
}
