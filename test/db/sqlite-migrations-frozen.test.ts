import { Kysely, Migrator } from 'kysely';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.ts';
import { PetstoreSqliteDialect } from '../../src/db/sqlite/sqlite-dialect.ts';

/** The schema as SQLite records it: every table, index and trigger with its DDL, in name order. */
function schemaOf(sqlite: SQLite.Database): string {
  const rows = sqlite
    .prepare("select type, name, sql from sqlite_master where name not like 'sqlite_%' and name not like 'kysely_%' order by type, name")
    .all() as { type: string; name: string; sql: string | null }[];
  return rows.map((row) => `-- ${row.type} ${row.name}\n${row.sql ?? ''};`).join('\n');
}

// Runs whatever the engine of the suite: landed SQLite migrations must produce, step by step,
// exactly the DDL recorded when they landed. Changing one fails here; add a migration instead.
describe('landed SQLite migrations', () => {
  it('produce the committed DDL, migration by migration', async () => {
    const sqlite = new SQLite(':memory:');
    const db = new Kysely({ dialect: new PetstoreSqliteDialect(sqlite, { lockTimeoutMs: 5_000 }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations.sqlite } });
    const steps: string[] = [];
    try {
      for (const name of Object.keys(migrations.sqlite)) {
        const { error } = await migrator.migrateTo(name);
        expect(error).toBeUndefined();
        steps.push(`==== after ${name}\n${schemaOf(sqlite)}`);
      }
    } finally {
      await db.destroy();
    }
    await expect(steps.join('\n\n') + '\n').toMatchFileSnapshot('./sqlite-schema.snapshot.sql');
  });

  it('keep the names and order PostgreSQL uses too', () => {
    expect(Object.keys(migrations.postgres)).toEqual(Object.keys(migrations.sqlite));
  });
});
