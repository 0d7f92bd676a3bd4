import { sql } from 'kysely';
import { createApp } from '../../src/app.ts';
import { backupCommand } from '../../src/cli/backup-command.ts';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { migrateCommand } from '../../src/cli/migrate-command.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import type { OpenDatabase } from '../../src/db/connection.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { ENGINE } from '../helpers/test-database.ts';

const NAMES = Object.keys(migrations.sqlite);
const LATEST = NAMES.at(-1) ?? '';

/** A command's exit code and the lines it printed. */
async function run(command: (out: (line: string) => void) => Promise<number>): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await command((line) => void lines.push(line));
  return { code, text: lines.join('\n') };
}

const configFor = (url: string, env: Record<string, string> = {}) =>
  loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '2', LOG_LEVEL: 'silent', MESSAGE_DELIVERY: 'false', ...env });

async function opened(url: string, use: (database: OpenDatabase) => Promise<void>): Promise<void> {
  const database = openDatabase(configFor(url).database);
  try {
    await use(database);
  } finally {
    await database.db.destroy();
  }
}

describe('petstore migrate', () => {
  it('--check lists every migration pending on an empty database and exits 3; migrate applies them; --check then exits 0', async ({
    databaseUrl,
  }) => {
    await opened(databaseUrl, async ({ db }) => {
      const before = await run((out) => migrateCommand({ db, lock: true, refusal: null }, ['--check'], out));
      expect(before.code).toBe(EXIT_CODES.pending);
      for (const name of NAMES) expect(before.text).toMatch(new RegExp(`^${name} +pending$`, 'm'));
      expect(before.text).toContain(`${NAMES.length} migration(s) pending`);

      const applied = await run((out) => migrateCommand({ db, lock: true, refusal: null }, [], out));
      expect(applied.code).toBe(EXIT_CODES.ok);
      for (const name of NAMES) expect(applied.text).toMatch(new RegExp(`^${name} +applied now$`, 'm'));

      const after = await run((out) => migrateCommand({ db, lock: true, refusal: null }, ['--check'], out));
      expect(after.code).toBe(EXIT_CODES.ok);
      expect(after.text).toMatch(new RegExp(`^${LATEST} +applied \\d{4}-\\d\\d-\\d\\dT`, 'm'));
      expect(after.text).not.toMatch(/pending/);
      expect(after.text).toContain('The database is up to date.');
    });
  });

  it('a database a newer release migrated: listed as such, and this release still starts and serves on it', async ({ databaseUrl }) => {
    await opened(databaseUrl, async ({ db }) => {
      await migrateCommand({ db, lock: true, refusal: null }, [], () => undefined);
      await sql`insert into kysely_migration (name, timestamp) values ('9999-a-newer-release', ${new Date().toISOString()})`.execute(db);
      const listed = await run((out) => migrateCommand({ db, lock: true, refusal: null }, ['--check'], out));
      expect(listed.code).toBe(EXIT_CODES.ok);
      expect(listed.text).toMatch(/^9999-a-newer-release +applied by a newer release$/m);
      expect((await run((out) => migrateCommand({ db, lock: true, refusal: null }, [], out))).text).toContain(
        'The database is up to date.',
      );
    });
    const app = await createApp({ config: configFor(databaseUrl) });
    try {
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('MIGRATE_ON_START=false: the server refuses to start while migrations are pending, naming them, and changes nothing', async ({
    databaseUrl,
  }) => {
    await expect(createApp({ config: configFor(databaseUrl, { MIGRATE_ON_START: 'false' }) })).rejects.toThrow(
      new RegExp(`lacks ${NAMES.length} migration\\(s\\) of this release: ${NAMES.join(', ')}\\. Apply them with \`petstore migrate\``),
    );
    await opened(databaseUrl, async ({ db }) => {
      expect((await run((out) => migrateCommand({ db, lock: true, refusal: null }, ['--check'], out))).code).toBe(EXIT_CODES.pending);
      await migrateCommand({ db, lock: true, refusal: null }, [], () => undefined);
    });
    const app = await createApp({ config: configFor(databaseUrl, { MIGRATE_ON_START: 'false' }) });
    await app.close();
  });
});

describe('petstore backup', () => {
  it.runIf(ENGINE === 'postgres')('on PostgreSQL: refuses, pointing to pg_dump', async ({ databaseUrl, tmp }) => {
    await opened(databaseUrl, async (database) => {
      await expect(backupCommand(database, [`${tmp}/copy.db`], () => undefined)).rejects.toThrow(/pg_dump: see "Backup and restore"/);
    });
  });

  it.runIf(ENGINE === 'sqlite')('never overwrites a file, and needs exactly one PATH', async ({ databaseUrl, tmp }) => {
    await opened(databaseUrl, async (database) => {
      await expect(backupCommand(database, [], () => undefined)).rejects.toThrow(/backup needs one PATH/);
      await expect(backupCommand(database, [databaseUrl], () => undefined)).rejects.toThrow(/already exists: give a new file name/);
      await expect(backupCommand(database, [`${tmp}/no/such/folder/x.db`], () => undefined)).rejects.toThrow(/folder .* does not exist/);
      const made = await run((out) => backupCommand(database, [`${tmp}/copy.db`], out).then(() => EXIT_CODES.ok));
      expect(made.text).toMatch(/^Backed up the SQLite database '.*' to .*copy\.db in \d+ ms\.$/);
    });
  });
});
