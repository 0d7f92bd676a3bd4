import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { loadConfig } from '../../src/config/load-config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { underMigrationLock } from '../../src/db/migrate.ts';
import { contractSteps, migrations } from '../../src/db/migrations/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { expandOnlyViolations } from '../helpers/migration-lint.ts';
import { ENGINE, freshDatabase } from '../helpers/test-database.ts';

const step = (statement: string): Migration => ({ up: async (db: Kysely<unknown>) => void (await sql.raw(statement).execute(db)) });

/** The lint on an empty database of the suite's engine. */
async function lint(url: string, list: Record<string, Migration>, contract: ReadonlySet<string> = contractSteps): Promise<string[]> {
  const { db } = openDatabase(loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '2' }).database);
  try {
    // Under the migration lock, as migrations run: its DDL and its look at every schema's tables
    // must not overlap another app's migrating, or a test schema being dropped.
    return await underMigrationLock(db, (locked) => expandOnlyViolations(locked as Kysely<unknown>, list, contract));
  } finally {
    await db.destroy();
  }
}

// CI's rule for migrations: a release only adds to the schema, so the release before it keeps
// serving on it during a rolling upgrade; removing comes in a later release, marked as a
// contract step (contractSteps in src/db/migrations/index.ts).
describe('migrations only expand the schema, unless marked as a contract step', () => {
  it('every landed migration of this engine keeps the schema the release before it serves on; the one contract step is seen', async ({
    databaseUrl,
    tmp,
  }) => {
    expect(await lint(databaseUrl, migrations[ENGINE])).toEqual([]);
    const unmarked = await freshDatabase(mkdtempSync(join(tmp, 'unmarked-')));
    try {
      expect(await lint(unmarked.url, migrations[ENGINE], new Set())).toEqual([
        '0005-drop-order-complete drops or renames column orders.complete',
      ]);
    } finally {
      await unmarked.drop();
    }
  });

  it('refuses a new migration that drops a column, renames one, drops a table, or adds a column older inserts cannot fill', async ({
    databaseUrl,
  }) => {
    const refused = await lint(databaseUrl, {
      ...migrations[ENGINE],
      '9001-drop-pet-name': step('alter table pets drop column name'),
      '9002-rename-order-status': step('alter table orders rename column status to state'),
      '9003-drop-idempotency': step('drop table idempotency_keys'),
      '9004-add-pet-note': step('alter table pets add column note text'),
      '9005-add-pet-color': step("alter table pets add column color text not null default 'brown'"),
      '9006-add-pet-size': step('alter table pets add column size integer not null'),
    });
    expect(refused).toEqual([
      '9001-drop-pet-name drops or renames column pets.name',
      '9002-rename-order-status drops or renames column orders.status',
      '9002-rename-order-status adds orders.state, not null without a default',
      '9003-drop-idempotency drops or renames table idempotency_keys',
      '9006-add-pet-size adds pets.size, not null without a default',
    ]);
  });

  it.runIf(ENGINE === 'postgres')("refuses a change of a column's type", async ({ databaseUrl }) => {
    const refused = await lint(databaseUrl, {
      ...migrations.postgres,
      '9001-widen-name': step('alter table pets alter column name type varchar(500)'),
    });
    expect(refused).toEqual([expect.stringMatching(/^9001-widen-name changes the type of pets\.name from \w+ to varchar$/)]);
  });

  it('lets a step marked as a contract step remove what an earlier release stopped using', async ({ databaseUrl }) => {
    const list = { ...migrations[ENGINE], '9001-drop-pet-name': step('alter table pets drop column name') };
    expect(await lint(databaseUrl, list, new Set([...contractSteps, '9001-drop-pet-name']))).toEqual([]);
  });
});
