import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { changesKeys } from '../../src/db/postgres/key-changes.ts';
import type { Database } from '../../src/db/types.ts';

// Queries built, never run: changesKeys reads only their operation nodes.
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('changesKeys', () => {
  it('is true for an insert, a delete or an update of a key table', () => {
    expect(changesKeys(db.updateTable('api_keys').set({ revoked_at: 'now' }).where('id', '=', 1).toOperationNode())).toBe(true);
    expect(changesKeys(db.updateTable('accounts').set({ disabled_at: 'now' }).toOperationNode())).toBe(true);
    expect(changesKeys(db.deleteFrom('api_keys').where('id', '=', 1).toOperationNode())).toBe(true);
    expect(changesKeys(db.insertInto('accounts').values({ name: 'a', created_at: 'now' }).toOperationNode())).toBe(true);
  });

  it('is false for the last_used_at bookkeeping, for other tables and for reads', () => {
    expect(changesKeys(db.updateTable('api_keys').set({ last_used_at: 'now' }).toOperationNode())).toBe(false);
    expect(changesKeys(db.updateTable('api_keys').set({ last_used_at: 'now', revoked_at: 'now' }).toOperationNode())).toBe(true);
    expect(changesKeys(db.updateTable('pets').set({ status: 'sold' }).toOperationNode())).toBe(false);
    expect(changesKeys(db.deleteFrom('idempotency_keys').toOperationNode())).toBe(false);
    expect(changesKeys(db.selectFrom('api_keys').selectAll().toOperationNode())).toBe(false);
  });
});
