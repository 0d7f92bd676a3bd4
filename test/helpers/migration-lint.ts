import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { ENGINE } from './test-database.ts';

interface Column {
  type: string;
  /** An older release's inserts leave it out: it must take null or have a default. */
  fillable: boolean;
}

type Shape = Map<string, Map<string, Column>>;

/** Every table's columns and their types, as the engine reports them (on PostgreSQL, in the schema in use). */
async function shapeOf(db: Kysely<unknown>): Promise<Shape> {
  const schema =
    ENGINE === 'postgres' ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name : undefined;
  const tables = (await db.introspection.getTables()).filter((table) => table.schema === schema);
  return new Map(
    tables.map((table) => [
      table.name,
      new Map(
        table.columns.map((c) => [c.name, { type: c.dataType, fillable: c.isNullable || c.hasDefaultValue || c.isAutoIncrementing }]),
      ),
    ]),
  );
}

/**
 * Runs `migrations` in order on an empty database and names each change an older release could
 * not serve on: a table or column gone (dropped, or renamed: the old name is gone), a column's
 * type changed, or a column added to an existing table that its inserts could not fill (not
 * null, no default). Only migrations in `contractSteps` may make them (docs/operations.md, Upgrading).
 * It compares the schema before and after each step, so it holds however the step is written
 * (SQL or the schema builder; SQLite's rebuild of a table keeps its shape and passes).
 */
export async function expandOnlyViolations(
  db: Kysely<unknown>,
  migrations: Record<string, Migration>,
  contractSteps: ReadonlySet<string>,
): Promise<string[]> {
  const found: string[] = [];
  for (const [name, migration] of Object.entries(migrations)) {
    const before = await shapeOf(db);
    await migration.up(db);
    if (contractSteps.has(name)) continue;
    const after = await shapeOf(db);
    for (const [table, columns] of before) {
      const now = after.get(table);
      if (!now) {
        found.push(`${name} drops or renames table ${table}`);
        continue;
      }
      for (const [column, { type }] of columns) {
        const nowType = now.get(column)?.type;
        if (nowType === undefined) found.push(`${name} drops or renames column ${table}.${column}`);
        else if (nowType !== type) found.push(`${name} changes the type of ${table}.${column} from ${type} to ${nowType}`);
      }
      for (const [column, { fillable }] of now) {
        if (!columns.has(column) && !fillable) found.push(`${name} adds ${table}.${column}, not null without a default`);
      }
    }
  }
  return found;
}
