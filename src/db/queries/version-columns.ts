import { sql } from 'kysely';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../types.ts';
import { VERSIONED_TABLE_NAMES, VERSIONED_TABLES } from '../versioned-tables.ts';

/**
 * Each versioned table's version as a subquery, named after the table. The account's id as
 * text: SQLite's driver binds a number as a real, which would print as '5.0'.
 */
export const versionColumns = (eb: ExpressionBuilder<Database, never>, accountId: string) =>
  VERSIONED_TABLE_NAMES.map((table) =>
    eb
      .selectFrom('table_versions')
      .select('version')
      .where('name', '=', VERSIONED_TABLES[table] === 'shared' ? table : sql<string>`${`${table}:`} || cast(${accountId} as text)`)
      .as(table),
  );
