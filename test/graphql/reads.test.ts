import { isObjectType, Kind, parse, print, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import type { DocumentNode, FieldNode, GraphQLField, GraphQLSchema } from 'graphql';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { describe, expect, it as unit } from 'vitest';
import { DERIVED_TABLES } from '../../src/db/versioned-tables.ts';
import type { Database } from '../../src/db/types.ts';
import { cacheableReads } from '../../src/graphql/cacheable-query.ts';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { readsOf } from '../../src/graphql/resolvers/reading.ts';
import { it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { spyOnQueries, spyOnSelects } from '../helpers/select-spy.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { ENGINE } from '../helpers/test-database.ts';

describe('what each field reads, for the response cache', () => {
  unit.for([
    ['the schema', false],
    ['the federation subgraph', true],
  ] as const)('is declared beside every resolver a query can reach (resolvers/reading.ts): %s', ([, federation]) => {
    const schema = petstoreSchema({ federation });
    const undeclared: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      // Mutations and subscriptions are never kept; introspection is graphql-js's own.
      if (!isObjectType(type) || type.name.startsWith('__') || type === schema.getMutationType() || type === schema.getSubscriptionType())
        continue;
      for (const field of Object.values(type.getFields())) if (readsOf(field) === undefined) undeclared.push(`${type.name}.${field.name}`);
    }
    expect(
      undeclared,
      "each has a resolver that does not say what it reads: a query selecting it is never kept, and it asks for petstore:read wherever it is. Wrap it as reading(['pets'], …) naming the versioned tables it reads, reading([], …) if it reads nothing, or reading('uncacheable', …)",
    ).toEqual([]);
  });

  unit('names the tables a resolver reads, the caller-specific ones as the caller sees them', () => {
    const schema = petstoreSchema();
    const at = (coordinate: string) => {
      const [type = '', field = ''] = coordinate.split('.');
      const found = schema.getType(type);
      if (!isObjectType(found)) throw new Error(`no type ${type}`);
      return readsOf(found.getFields()[field] as Parameters<typeof readsOf>[0]);
    };
    expect(at('Query.pets')).toEqual(['pets']);
    expect(at('Pet.orders')).toEqual(['orders']);
    expect(at('Order.pet')).toEqual(['pets']);
    expect(at('Query.message')).toEqual(['messages']);
    expect(at('Query.myKeys')).toBe('uncacheable');
    // A property of its parent's record reads nothing of its own.
    expect(at('Pet.name')).toEqual([]);
  });
});

/** The credential's own lookups (the key, its account, a token's identity): the request's, not the answer's. */
const CREDENTIAL_TABLES = new Set(['api_keys', 'accounts', 'account_identities']);

/** Queries that between them select every field a cached answer can hold that runs a resolver of its own. */
const QUERIES = [
  '{ pets(first: 3) { totalCount edges { cursor node { id name orders { id status } } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }',
  '{ pet(id: "1") { id name orders { id } } }',
  '{ orders(first: 3) { totalCount edges { cursor node { id pet { id name } } } nodes { id pet { name } } pageInfo { hasNextPage hasPreviousPage } } }',
  '{ order(id: "1") { id pet { id name } } }',
  'query($id: ID!) { message(id: $id) { id status } }',
];

const seen: string[] = [];
/** Every statement the app sends that writes: what DERIVED_TABLES says only triggers write is checked against them. */
const writes: string[] = [];
const seeSelects = spyOnSelects((table) => seen.push(table));
const seeWrites = spyOnQueries(({ sql: text }) => {
  if (/^\s*(insert|update|delete)\b/i.test(text)) writes.push(text);
});
it.override('appOptions', { wrapDb: (db) => seeWrites(seeSelects(db)) });
// Every query runs, so what it reads is seen: a kept answer reads nothing.
it.override('appEnv', { RESPONSE_CACHE: 'false' });

/** The tables (with how many statements each) one run of `text` reads, the credential's lookups left out. */
async function readsOfRun(t: TestApp, text: string, variables: Record<string, unknown>): Promise<Map<string, number>> {
  seen.length = 0;
  const { body } = await graphql(t, text, variables);
  expect(body.errors, text).toBeUndefined();
  const counts = new Map<string, number>();
  for (const table of seen) if (!CREDENTIAL_TABLES.has(table)) counts.set(table, (counts.get(table) ?? 0) + 1);
  return counts;
}

/** What `with` read beyond `without`: tables and their extra statements. */
function beyond(withField: Map<string, number>, without: Map<string, number>): Map<string, number> {
  const extra = new Map<string, number>();
  for (const [table, count] of withField) if (count > (without.get(table) ?? 0)) extra.set(table, count - (without.get(table) ?? 0));
  return extra;
}
const words = (reads: Map<string, number>) => [...reads].map(([table, count]) => `${table} (${count})`).join(', ');

/**
 * Whose versions a write to `table` moves, asked of the database itself: one row updated in
 * place (every column set to itself) and deleted, in a transaction rolled back, the table
 * versions compared before and after each. `orders:5` counts as `orders`. Tables that only the
 * versioned tables' triggers write (DERIVED_TABLES) are current with the tables named there.
 */
const probed = new Map<string, Promise<{ moved: Set<string>; by: string[] }>>();
/** versionsMovedBy, once per table for the file: the probe writes and rolls back, and its answer does not change. */
const movedBy = (db: Kysely<Database>, table: string) => {
  let found = probed.get(table);
  if (!found) probed.set(table, (found = versionsMovedBy(db, table)));
  return found;
};

async function versionsMovedBy(db: Kysely<Database>, table: string): Promise<{ moved: Set<string>; by: string[] }> {
  if (DERIVED_TABLES[table]) return { moved: new Set(DERIVED_TABLES[table]), by: ['derived'] };
  const moved = new Set<string>();
  const by: string[] = [];
  const versions = async (trx: Kysely<Database>) =>
    new Map((await trx.selectFrom('table_versions').select(['name', 'version']).execute()).map((row) => [row.name, String(row.version)]));
  const probe = async (event: string, write: (trx: Kysely<Database>) => Promise<{ numAffectedRows?: bigint }>) => {
    try {
      await db.transaction().execute(async (trx) => {
        const before = await versions(trx);
        if (!(await write(trx)).numAffectedRows) {
          by.push(`no row to ${event}: give the table one in this file's beforeAll, so what its writes move can be seen`);
          throw new RollBack();
        }
        const movedHere = [...(await versions(trx))].filter(([name, version]) => before.get(name) !== version).map(([name]) => name);
        for (const name of movedHere) moved.add(name.split(':')[0] ?? name);
        by.push(`${event} of one row moved ${movedHere.join(', ') || 'none'}`);
        throw new RollBack();
      });
    } catch (error) {
      if (!(error instanceof RollBack)) by.push(`${event} not tried: ${(error as Error).message}`);
    }
  };
  // One row, named by PostgreSQL's ctid or SQLite's primary key (a table may be WITHOUT ROWID).
  const columns = (
    await sql<{ name: string; pk: number }>`${sql.raw(
      ENGINE === 'sqlite'
        ? `select name, pk from pragma_table_info('${table}') order by pk`
        : `select column_name as name, 0 as pk from information_schema.columns where table_name = '${table}' and table_schema = current_schema()`,
    )}`.execute(db)
  ).rows;
  const keys = columns.filter((column) => column.pk > 0).map((column) => sql.ref(column.name));
  const row = ENGINE === 'postgres' ? sql.raw('ctid') : keys.length > 0 ? sql`(${sql.join(keys)})` : sql.raw('rowid');
  const rowList = ENGINE === 'postgres' ? sql.raw('ctid') : keys.length > 0 ? sql.join(keys) : sql.raw('rowid');
  const first = sql.ref(columns[0]?.name ?? 'id');
  const oneRow = sql`${row} = (select ${rowList} from ${sql.table(table)} limit 1)`;
  await probe('update', (trx) => sql`update ${sql.table(table)} set ${first} = ${first} where ${oneRow}`.execute(trx));
  await probe('delete', (trx) => sql`delete from ${sql.table(table)} where ${oneRow}`.execute(trx));
  return { moved, by };
}
class RollBack extends Error {}

const TYPENAME = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } } as const;

/**
 * `document` with the field `node` alone, its own reads and not its children's: `kept` has the
 * field with `__typename` for a selection, `dropped` has it not at all (its parent keeps
 * `__typename` if nothing else is left). What the first reads beyond the second is the field's.
 */
function withAndWithout(document: DocumentNode, node: FieldNode): { kept: string; dropped: string } {
  const kept = visit(document, {
    Field: {
      enter: (field) =>
        field === node && field.selectionSet ? { ...field, selectionSet: { ...field.selectionSet, selections: [TYPENAME] } } : undefined,
    },
  });
  const dropped = visit(document, {
    Field: { enter: (field) => (field === node ? null : undefined) },
    SelectionSet: { leave: (set) => (set.selections.length === 0 ? { ...set, selections: [TYPENAME] } : undefined) },
  });
  return { kept: print(kept), dropped: print(dropped) };
}

/** Each field of `text` below the root that runs a resolver of its own, with where it is. */
function resolvedFields(
  schema: GraphQLSchema,
  document: DocumentNode,
): { coordinate: string; node: FieldNode; field: GraphQLField<unknown, unknown> }[] {
  const found: { coordinate: string; node: FieldNode; field: GraphQLField<unknown, unknown> }[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (!parent || !field || parent === schema.getQueryType() || !field.resolve) return;
        found.push({ coordinate: `${parent.name}.${field.name}`, node, field });
      },
    }),
  );
  return found;
}

/** The message `message(id:)` in QUERIES reads, made once for the file. */
let message = '';

describe('what each field really reads, spied on the database', () => {
  it.beforeAll(async ({ t }) => {
    // Three pets with an order each: a page of three where a field read once per item shows.
    for (let i = 0; i < 3; i++) {
      const pet = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `Read ${i}`, categoryId: 1 } });
      await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: pet.json().id } });
    }
    message = (await t.call({ method: 'POST', url: '/messages', payload: { message: 'read' } })).json().id as string;
  });

  it('covers every resolver a kept answer can hold with the queries above (add one for a new field)', () => {
    const schema = petstoreSchema();
    const selected = new Set(QUERIES.flatMap((text) => resolvedFields(schema, parse(text)).map(({ coordinate }) => coordinate)));
    for (const root of Object.keys(schema.getQueryType()?.getFields() ?? {})) selected.add(`Query.${root}`);
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || type === schema.getMutationType() || type === schema.getSubscriptionType())
        continue;
      for (const field of Object.values(type.getFields())) {
        const coordinate = `${type.name}.${field.name}`;
        if (field.resolve && readsOf(field) !== 'uncacheable' && !selected.has(coordinate) && type.name !== 'CancelOrderPayload')
          missing.push(coordinate);
      }
    }
    expect(missing, 'select each in a query of QUERIES in test/graphql/reads.test.ts').toEqual([]);
  });

  it('writes a table declared derived (DERIVED_TABLES) only through triggers, never by a statement of its own', async ({ t }) => {
    await t.call({ method: 'POST', url: '/messages', payload: { message: 'written' } });
    expect(writes.length, 'the writes of this file (pets, orders, messages) were seen').toBeGreaterThan(0);
    const wrong = writes.filter((text) =>
      Object.keys(DERIVED_TABLES).some((table) =>
        new RegExp(`^\\s*(insert\\s+into|update|delete\\s+from)\\s+"?${table}"?\\b`, 'i').test(text),
      ),
    );
    // A table the app writes has a version of its own (triggers), not a place in DERIVED_TABLES.
    expect(wrong).toEqual([]);
  });

  it('reads only tables whose writes move a version its query declares: a table without one leaves kept answers and ETags stale', async ({
    t,
  }) => {
    const schema = petstoreSchema();
    const problems: string[] = [];
    for (const text of QUERIES) {
      const declared = (cacheableReads(schema, parse(text), undefined) ?? []) as string[];
      for (const table of (await readsOfRun(t, text, { id: message })).keys()) {
        const { moved, by } = await movedBy(t.db, table);
        if (moved.size === 0)
          problems.push(
            `${table} is read by ${text}, and a write to it moves no version (${by.join('; ')}): give it triggers that write table_versions after insert, update and delete, under the version of the record it belongs to (migration 0011), on both engines`,
          );
        else if (![...moved].some((name) => declared.includes(name)))
          problems.push(`${text} reads ${table}, whose writes move ${[...moved].join(', ')}, and declares only ${declared.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('reads, field by field, only what the field declares (reading(…) beside its resolver), and a field declaring nothing reads nothing', async ({
    t,
  }) => {
    const schema = petstoreSchema();
    const problems: string[] = [];
    for (const text of QUERIES) {
      const document = parse(text);
      for (const { coordinate, node, field } of resolvedFields(schema, document)) {
        const reads = readsOf(field);
        if (reads === 'uncacheable') continue;
        const { kept, dropped } = withAndWithout(document, node);
        const extra = beyond(await readsOfRun(t, kept, { id: message }), await readsOfRun(t, dropped, { id: message }));
        if (extra.size === 0) continue;
        if (reads === undefined || reads.length === 0)
          problems.push(
            `${coordinate} declares that it reads nothing beyond its parent's record, and selecting it read ${words(extra)}: wrap its resolver as reading([…the tables…], …) (src/graphql/resolvers/reading.ts), which also makes it ask for petstore:read`,
          );
        else
          for (const table of extra.keys()) {
            const { moved } = await movedBy(t.db, table);
            if (![...moved].some((name) => (reads as readonly string[]).includes(name)))
              problems.push(
                `${coordinate} read ${table} (whose writes move ${[...moved].join(', ') || 'no version'}) and declares reading ${reads.join(', ')}`,
              );
          }
      }
    }
    expect(problems).toEqual([]);
  });

  it('reads a page of three in as many statements as a page of one: every field under a list is batched (@cost(weight: 1) says so)', async ({
    t,
  }) => {
    const schema = petstoreSchema();
    const problems: string[] = [];
    for (const text of QUERIES.filter((query) => query.includes('first: 3'))) {
      const document = parse(text);
      const one = parse(text.replaceAll('first: 3', 'first: 1'));
      const fields = resolvedFields(schema, document);
      const fieldsOfOne = resolvedFields(schema, one);
      for (const [i, { coordinate, node }] of fields.entries()) {
        const oneNode = fieldsOfOne[i]?.node;
        if (!oneNode) continue;
        const statements = (reads: Map<string, number>) => [...reads.values()].reduce((sum, n) => sum + n, 0);
        const ownReads = async (of: DocumentNode, field: FieldNode) => {
          const { kept, dropped } = withAndWithout(of, field);
          return statements(beyond(await readsOfRun(t, kept, {}), await readsOfRun(t, dropped, {})));
        };
        const ofThree = await ownReads(document, node);
        const ofOne = await ownReads(one, oneNode);
        if (ofThree !== ofOne)
          problems.push(
            `${coordinate} ran ${ofOne} statement(s) for a page of one and ${ofThree} for a page of three: read it for the whole page at once through a loader (src/graphql/loaders.ts), as the relations there are, or price it @cost(weight: 10)`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
