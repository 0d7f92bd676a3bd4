import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { PetstoreSqliteDialect } from '../../../src/db/sqlite/sqlite-dialect.ts';

const db = new Kysely<Record<string, never>>({ dialect: new PetstoreSqliteDialect(new SQLite(':memory:'), { lockTimeoutMs: 100 }) });
afterAll(() => db.destroy());

describe('the SQLite dialect', () => {
  it('gives each row as an object named by its columns, whatever the names, the same statement each time', async () => {
    await sql`create table things (id integer primary key, "odd ""name""" text, "__proto__" text, "constructor" integer)`.execute(db);
    const written = await sql`insert into things values (1, 'a', 'p', 7), (2, 'b', null, 8)`.execute(db);
    expect(written.numAffectedRows).toBe(2n);
    const read = () =>
      sql<Record<string, unknown>>`select id, "odd ""name""", "__proto__", "constructor", id * 2 as "id" from things order by 1`.execute(
        db,
      );
    for (let round = 0; round < 2; round++) {
      const { rows } = await read();
      // Two columns named `id`: the later one is the row's, as SQLite's own row objects have it.
      expect(rows.map((row) => ({ ...row }))).toEqual([
        { id: 2, 'odd "name"': 'a', ['__proto__']: 'p', constructor: 7 },
        { id: 4, 'odd "name"': 'b', ['__proto__']: null, constructor: 8 },
      ]);
      // `__proto__` is a column like any other: the row's prototype stays Object's.
      expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
      expect(Object.keys(rows[0] ?? {})).toEqual(['id', 'odd "name"', '__proto__', 'constructor']);
    }
  });
});
