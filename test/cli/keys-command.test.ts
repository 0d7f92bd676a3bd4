import { keysCommand } from '../../src/cli/keys-command.ts';
import { migrateCommand } from '../../src/cli/migrate-command.ts';
import { UsageError } from '../../src/cli/usage-error.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';

const KEY = /^psk_[A-Za-z0-9]{40}$/;

// The command handlers in-process, on a database of the suite's engine: what `petstore keys …`
// prints (each `out` call is one stdout line) and what it refuses. test/cli.process.ts runs the
// CLI as a process for what only a process shows: exit codes, the first key on start, signals.
describe('petstore keys', () => {
  it('creates keys (the key alone on the last line), lists them without the key, and revokes, once', async ({ databaseUrl }) => {
    const { db } = openDatabase(loadConfig({ DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '2' }).database);
    const keys = async (...args: string[]) => {
      const lines: string[] = [];
      await keysCommand(db, args, (line) => void lines.push(line));
      return lines;
    };
    try {
      await migrateCommand({ db, lock: true, refusal: null }, [], () => undefined);
      const created = await keys('create', '--account', 'alice');
      expect(created[0]).toMatch(/^Created key 1 \(psk_\w{8}…\) for account "alice"\. It is shown once and cannot be recovered:$/);
      const key = created.at(-1) ?? '';
      expect(key).toMatch(KEY);

      const listed = (await keys('list')).join('\n');
      expect(listed).toMatch(/^ID\s+PREFIX\s+ACCOUNT\s+CREATED\s+LAST USED\s+REVOKED\n1\s+psk_\w{8}\s+alice\s+\d{4}-\S+\s+-\s+-$/);
      expect(listed).toContain(key.slice(0, 12));
      expect(listed).not.toContain(key);

      expect((await keys('revoke', '1')).join('\n')).toMatch(/^Revoked key 1 \(psk_\w{8}…\) at \d{4}-/);
      const listedAfter = (await keys('list')).join('\n');
      expect(listedAfter).toMatch(/alice\s+\S+\s+-\s+\d{4}-/);
      expect((await keys('revoke', key.slice(0, 12))).join('\n')).toMatch(
        /^Key 1 \(psk_\w{8}…\) was already revoked at \d{4}-\S+; nothing changed\.$/,
      );
      expect((await keys('list')).join('\n')).toBe(listedAfter);

      await expect(keys('create')).rejects.toThrow(UsageError);
      const badName = keys('create', '--account', 'bad name!');
      await expect(badName).rejects.toThrow(/account name/i);
      await expect(badName).rejects.not.toThrow(UsageError);
      await expect(keys('revoke', '99')).rejects.toThrow(/No API key with id or prefix '99'/);
    } finally {
      await db.destroy();
    }
  });
});
