import { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.ts';
import { PetstoreSqliteDialect } from '../../src/db/sqlite/sqlite-dialect.ts';

/** The schema as SQLite records it: each table, index and trigger (`type name`) with its DDL. */
function schemaOf(sqlite: SQLite.Database): Map<string, string> {
  const rows = sqlite
    .prepare("select type, name, sql from sqlite_master where name not like 'sqlite_%' and name not like 'kysely_%' order by type, name")
    .all() as { type: string; name: string; sql: string | null }[];
  return new Map(rows.map((row) => [`${row.type} ${row.name}`, `${row.sql ?? ''};`]));
}

/** What one migration did to the schema: each object it added (+), changed (~, its new DDL) or dropped (-), in name order. */
function changes(before: Map<string, string>, after: Map<string, string>): string {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names
    .flatMap((name) => {
      const was = before.get(name);
      const is = after.get(name);
      if (was === is) return [];
      if (is === undefined) return [`- ${name}`];
      return [`${was === undefined ? '+' : '~'} ${name}\n${is}`];
    })
    .join('\n');
}

// Runs whatever the engine of the suite: landed SQLite migrations must produce, step by step,
// exactly the DDL recorded when they landed (each migration's changes: the file grows by what a
// new migration does, not by the whole schema). Changing one fails here; add a migration instead.
// A new migration is recorded with `npx vitest run -u test/db/sqlite-migrations-frozen.test.ts`
// (docs/CONTRIBUTING.md, "Adding a table").
describe('landed SQLite migrations', () => {
  it('produce the committed DDL, migration by migration', async () => {
    const sqlite = new SQLite(':memory:');
    const db = new Kysely({ dialect: new PetstoreSqliteDialect(sqlite, { lockTimeoutMs: 5_000 }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations.sqlite } });
    const steps: string[] = [];
    let before = schemaOf(sqlite);
    try {
      for (const name of Object.keys(migrations.sqlite)) {
        const { error } = await migrator.migrateTo(name);
        expect(error).toBeUndefined();
        const after = schemaOf(sqlite);
        steps.push(`==== ${name}\n${changes(before, after)}`);
        before = after;
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
