import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseError } from '../../src/db/database-error.ts';
import { preparedQuery } from '../../src/db/prepared-query.ts';
import { openSqlite } from '../../src/db/sqlite/open-sqlite.ts';
import { sqliteConfig } from '../helpers/sqlite-config.ts';

// The raw Kysely type: these tests make a table of their own, not the service's schema.
type Db = Kysely<{ things: { id: number; name: string } }>;

const open = openSqlite(sqliteConfig(':memory:'));
const db = open.db as unknown as Db;
afterAll(() => open.close());

const seen: string[] = [];
open.observe({ start: (text) => (seen.push(text), () => undefined), lockWait: () => undefined });

const ready = sql`create table things (id integer primary key, name text not null)`.execute(db);
const named = preparedQuery((kysely: Db, name: string) => kysely.selectFrom('things').select('id').where('name', '=', name));
const insert = preparedQuery((kysely: Db, id: number, name: string) => kysely.insertInto('things').values({ id, name }));

describe('a prepared query on the SQLite database, outside a transaction (run directly, not through Kysely’s executor)', () => {
  it('runs on the connection the statement observer watches', async () => {
    await ready;
    seen.length = 0;
    await insert(db, 1, 'one');
    expect(await named(db, 'one')).toEqual([{ id: 1 }]);
    expect(seen).toEqual([expect.stringMatching(/^insert into "things"/), expect.stringMatching(/^select "id" from "things"/)]);
  });

  it('waits its turn while a transaction holds the connection, and sees only what it committed', async () => {
    await ready;
    let outside: Promise<unknown> | null = null;
    const order: string[] = [];
    await db.transaction().execute(async (trx) => {
      await insert(trx, 2, 'two');
      // Run now, this query would see the transaction's row before its commit.
      outside = named(db, 'two').then((rows) => order.push(`outside read ${JSON.stringify(rows)}`));
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('transaction ends');
    });
    await outside;
    expect(order).toEqual(['transaction ends', 'outside read [{"id":2}]']);
  });

  it('gives the connection back when a statement fails, as a DatabaseError', async () => {
    await ready;
    const failed = await insert(db, 1, 'again').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(DatabaseError);
    expect(await named(db, 'one')).toEqual([{ id: 1 }]);
    // A transaction, which waits for the connection Kysely's way, gets it too.
    await db.transaction().execute(async (trx) => void (await insert(trx, 3, 'three')));
    expect(await named(db, 'three')).toEqual([{ id: 3 }]);
  });
});
