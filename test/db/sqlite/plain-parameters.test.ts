import SQLite from 'better-sqlite3';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { graphql } from '../../helpers/graphql.ts';
import { ENGINE } from '../../helpers/test-database.ts';

// Every statement SQLite is given, as it is prepared (this file's worker only).
const prepared = new Set<string>();
const prepare = SQLite.prototype.prepare;
SQLite.prototype.prepare = function (this: SQLite.Database, source: string) {
  prepared.add(source);
  return prepare.call(this, source);
} as typeof prepare;

/** The `?` of a statement outside its quoted names and strings, not written `+?`. */
const bareParameters = (source: string) => source.replace(/"(?:[^"]|"")*"|'(?:[^']|'')*'/g, '').match(/(?<!\+)\?/g) ?? [];

// A bound value SQLite's planner reads (a LIMIT's, a key's in a join) expires the statement at
// every bind, and better-sqlite3 binds at every run: each run parsed and planned it again. The
// dialect writes each parameter `+?` (sqlite-dialect.ts); a statement that does not is found here.
describe.runIf(ENGINE === 'sqlite')('statements on SQLite', () => {
  it('bind every parameter as +?, which no bound value can make SQLite compile again, on the hot requests of REST and GraphQL', async ({
    t,
  }) => {
    for (let i = 0; i < 25; i++) await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `p${i}`, categoryId: 1 } });
    await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: 3 } });
    const page = await t.call({ url: '/v1/pets?limit=5' });
    expect(page.statusCode).toBe(200);
    expect((await t.call({ url: '/v1/pets?limit=5', headers: { 'if-none-match': String(page.headers.etag) } })).statusCode).toBe(304);
    const next = new URL(/<([^>]+)>; rel="next"/.exec(String(page.headers.link))?.[1] ?? '', 'http://localhost');
    expect((await t.call({ url: `${next.pathname}${next.search}` })).statusCode).toBe(200);
    expect((await t.call({ url: '/v1/pets/3' })).statusCode).toBe(200);
    const { body } = await graphql(
      t,
      '{ pets(first: 20) { nodes { id name categoryId } } orders(first: 5) { nodes { id pet { name } } } }',
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();

    const withParameters = [...prepared].filter((source) => source.includes('?'));
    // The key lookup, the versions, both pages, the pet, the writes: the hot statements were seen.
    expect(withParameters.length).toBeGreaterThan(8);
    expect(withParameters.filter((source) => bareParameters(source).length > 0)).toEqual([]);
  });
});
