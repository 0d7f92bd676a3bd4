import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { KyselyPlugin } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { preparedQuery } from '../../src/db/prepared-query.ts';

interface Db {
  things: { id: number; kind: string; size: number };
}

const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
afterAll(() => db.destroy());

const seeded = (async () => {
  await db.schema
    .createTable('things')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('kind', 'text')
    .addColumn('size', 'integer')
    .execute();
  await db
    .insertInto('things')
    .values([
      { id: 1, kind: 'a', size: 10 },
      { id: 2, kind: 'b', size: 20 },
      { id: 3, kind: 'a', size: 30 },
    ])
    .execute();
})();

// A value fixed when the query is built ('a' below) stays; the arguments are bound per call.
const ofKindA = preparedQuery((kysely: Kysely<Db>, minSize: number) =>
  kysely.selectFrom('things').select('id').where('kind', '=', 'a').where('size', '>=', minSize).orderBy('id'),
);

describe('preparedQuery', () => {
  it('builds once and binds each call’s arguments in place, keeping values fixed at build time', async () => {
    await seeded;
    expect(await ofKindA(db, 0)).toEqual([{ id: 1 }, { id: 3 }]);
    expect(await ofKindA(db, 20)).toEqual([{ id: 3 }]);
    expect(await ofKindA(db, 99)).toEqual([]);
  });

  it('prepares once for a database and its transactions, each call run on its own connection', async () => {
    await seeded;
    let builds = 0;
    const sizeOf = preparedQuery((kysely: Kysely<Db>, id: number) => {
      builds++;
      return kysely.selectFrom('things').select('size').where('id', '=', id);
    });
    expect(await sizeOf(db, 1)).toEqual([{ size: 10 }]);
    const prepared = builds;
    const undone = new Error('roll back');
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('things').set({ size: 11 }).where('id', '=', 1).execute();
        expect(await sizeOf(trx, 1)).toEqual([{ size: 11 }]);
        throw undone;
      }),
    ).rejects.toBe(undone);
    // Outside production every call builds once more to check its shape; the transaction's call prepared nothing of its own.
    expect(builds).toBe(prepared + 1);
    expect(await sizeOf(db, 1)).toEqual([{ size: 10 }]);
  });

  it('refuses a builder that does not bind one of its arguments', async () => {
    await seeded;
    const ignoresSize = preparedQuery((kysely: Kysely<Db>, _size: number) => kysely.selectFrom('things').select('id'));
    await expect(ignoresSize(db, 1)).rejects.toThrow(/every argument must become a query parameter/);
  });

  it('refuses a call that leaves out an argument: it would run the shape built with it', async () => {
    await seeded;
    const bySize = preparedQuery((kysely: Kysely<Db>, size: number, kind?: string) =>
      kysely
        .selectFrom('things')
        .select('id')
        .where('size', '=', size)
        .where('kind', '=', kind ?? 'a'),
    );
    await expect(bySize(db, 10)).rejects.toThrow(/called with 1 arguments, built with 2/);
    expect(await bySize(db, 20, 'b')).toEqual([{ id: 2 }]);
  });

  it('compiles on every call on a database with plugins, with the same answers', async () => {
    await seeded;
    let seen = 0;
    const counting: KyselyPlugin = {
      transformQuery: ({ node }) => (seen++, node),
      transformResult: async ({ result }) => result,
    };
    const withPlugin = db.withPlugin(counting);
    expect(await ofKindA(withPlugin, 20)).toEqual([{ id: 3 }]);
    expect(await ofKindA(withPlugin, 0)).toEqual([{ id: 1 }, { id: 3 }]);
    expect(seen).toBe(2);
  });

  it('refuses, outside production, a builder that branches on an argument: the branch would be frozen', async () => {
    await seeded;
    // The mistake a newcomer makes: a filter only when given. Built with stand-ins, the branch is taken once.
    const branching = preparedQuery((kysely: Kysely<Db>, kind: string) => {
      const query = kysely.selectFrom('things').select('id');
      return kind === '' ? query : query.where('kind', '=', kind);
    });
    await expect(branching(db, '')).rejects.toThrow(/the builder branched on its arguments/);
  });
});
