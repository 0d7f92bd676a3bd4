import { sql } from 'kysely';
import { VERSIONED_TABLES } from '../../src/services/versions/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { ENGINE } from '../helpers/test-database.ts';

// Every table answers are read from moves its version on every write (the triggers of
// migrations 0010-0011), or cached answers and ETags outlive the writes they no longer show.
// A table added to VERSIONED_TABLES without its triggers fails here, on either engine.

const EVENTS = ['INSERT', 'UPDATE', 'DELETE'] as const;

describe('the versioned tables (services/versions VERSIONED_TABLES)', () => {
  it('each has a trigger that writes table_versions after every insert, update and delete', async ({ t }) => {
    const versioning: Record<string, string[]> = {};
    for (const table of Object.keys(VERSIONED_TABLES)) {
      const rows =
        ENGINE === 'sqlite'
          ? (
              await sql<{ body: string }>`select sql as body from sqlite_master where type = 'trigger' and tbl_name = ${table}`.execute(
                t.db,
              )
            ).rows
          : (
              await sql<{ body: string }>`
                select pg_get_triggerdef(tr.oid) || ' ' || p.prosrc as body
                from pg_trigger tr join pg_proc p on p.oid = tr.tgfoid
                where tr.tgrelid = ${table}::regclass and not tr.tgisinternal`.execute(t.db)
            ).rows;
      versioning[table] = EVENTS.filter((event) =>
        rows.some(({ body }) => new RegExp(`\\bAFTER\\b[^;]*\\b${event}\\b`, 'i').test(body) && /table_versions/.test(body)),
      );
    }
    expect(versioning).toEqual(Object.fromEntries(Object.keys(VERSIONED_TABLES).map((table) => [table, [...EVENTS]])));
  });

  it('a write through the API moves the versions the caller reads', async ({ t }) => {
    const version = async (name: string) =>
      (await t.db.selectFrom('table_versions').select('version').where('name', '=', name).executeTakeFirst())?.version;
    const before = { pets: await version('pets'), orders: await version('orders:1') };
    const pet = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Versioned', categoryId: 1 } });
    await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: pet.json().id } });
    expect(await version('pets')).not.toBe(before.pets);
    expect(await version('orders:1')).not.toBe(before.orders);
  });
});
