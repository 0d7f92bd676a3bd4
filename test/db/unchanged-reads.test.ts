import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { preparedQuery } from '../../src/db/prepared-query.ts';
import { openSqlite } from '../../src/db/sqlite/open-sqlite.ts';
import { sqliteConfig } from '../helpers/sqlite-config.ts';
import { whileUnchanged } from '../../src/db/unchanged-reads.ts';

// The raw Kysely type: these tests make a table of their own, not the service's schema.
type Db = Kysely<{ things: { id: number; name: string } }>;

const dir = mkdtempSync(join(tmpdir(), 'unchanged-reads-'));
const file = join(dir, 'things.db');
const open = openSqlite(sqliteConfig(file));
const db = open.db as unknown as Db;
afterAll(async () => {
  await open.close();
  rmSync(dir, { recursive: true, force: true });
});

const statements: string[] = [];
open.observe({ start: (text) => (statements.push(text), () => undefined), lockWait: () => undefined });

const ready = sql`create table things (id integer primary key, name text not null)`.execute(db);
const byName = whileUnchanged(
  preparedQuery((kysely: Db, name: string) => kysely.selectFrom('things').select(['id', 'name']).where('name', '=', name)),
);
const insert = preparedQuery((kysely: Db, id: number, name: string) => kysely.insertInto('things').values({ id, name }));
/** How many times the read's own statement ran for `run`. */
async function readsRun(run: () => Promise<unknown>): Promise<number> {
  statements.length = 0;
  await run();
  return statements.filter((text) => text.startsWith('select "id", "name" from "things"')).length;
}

describe('a read answered again while nothing was committed (SQLite)', () => {
  it('runs its statement once while nothing changes, per set of arguments', async () => {
    await ready;
    await insert(db, 1, 'one');
    expect(await readsRun(async () => expect(await byName(db, 'one')).toEqual([{ id: 1, name: 'one' }]))).toBe(1);
    expect(await readsRun(() => byName(db, 'one'))).toBe(0);
    expect(await readsRun(() => byName(db, 'two'))).toBe(1);
  });

  it('runs it again after a write on its own connection, and answers what was written', async () => {
    await ready;
    await byName(db, 'three');
    await insert(db, 3, 'three');
    expect(await readsRun(async () => expect(await byName(db, 'three')).toEqual([{ id: 3, name: 'three' }]))).toBe(1);
  });

  it('runs it again after another connection commits (the CLI, another server on the file), at once', async () => {
    await ready;
    expect(await byName(db, 'four')).toEqual([]);
    const other = new SQLite(file);
    try {
      other.prepare("insert into things (id, name) values (4, 'four')").run();
    } finally {
      other.close();
    }
    expect(await byName(db, 'four')).toEqual([{ id: 4, name: 'four' }]);
  });

  it('never keeps an answer read before a transaction committed under the state after it', async () => {
    await ready;
    expect(await byName(db, 'five')).toEqual([]);
    let outside: Promise<readonly unknown[]> | null = null;
    await db.transaction().execute(async (trx) => {
      await insert(trx, 5, 'five');
      // Asked mid-transaction: it waits for the connection, and reads what was committed.
      outside = byName(db, 'five');
      await new Promise((resolve) => setTimeout(resolve, 10));
      await insert(trx, 6, 'five-and-a-half');
    });
    expect(await outside).toEqual([{ id: 5, name: 'five' }]);
    expect(await byName(db, 'five')).toEqual([{ id: 5, name: 'five' }]);
  });

  it('shares its rows frozen, so no caller can change what the next one is given', async () => {
    await ready;
    const [row] = await byName(db, 'one');
    expect(Object.isFrozen(row)).toBe(true);
    expect(() => ((row as { name: string }).name = 'changed')).toThrow(TypeError);
    expect(await byName(db, 'one')).toEqual([{ id: 1, name: 'one' }]);
  });

  it('always runs the statement inside a transaction, which is another object', async () => {
    await ready;
    expect(await readsRun(() => db.transaction().execute((trx) => byName(trx, 'one')))).toBe(1);
    expect(await readsRun(() => db.transaction().execute((trx) => byName(trx, 'one')))).toBe(1);
  });
});
