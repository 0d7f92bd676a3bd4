import { SelectQueryNode, TableNode } from 'kysely';
import type { Kysely, KyselyPlugin } from 'kysely';
import type { Database } from '../../src/db/types.ts';

/** Wraps the app's database so `onSelect` sees the table of every SELECT with a FROM before it runs (and may throw). */
export function spyOnSelects(onSelect: (table: string) => void): (db: Kysely<Database>) => Kysely<Database> {
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      // A SELECT with no FROM is the table versions' read (services/versions), one per cacheable
      // request whatever it asks: these spies count what answering it reads.
      if (SelectQueryNode.is(node) && node.from !== undefined) {
        const from = node.from.froms[0];
        onSelect(from && TableNode.is(from) ? from.table.identifier.name : '?');
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return (db) => db.withPlugin(plugin);
}

export interface SeenQuery {
  sql: string;
  parameters: readonly unknown[];
}

/** Wraps the app's database so `onQuery` sees every query as the database will run it: SQL text and parameters. */
export function spyOnQueries(onQuery: (query: SeenQuery) => void): (db: Kysely<Database>) => Kysely<Database> {
  return (db) => {
    const plugin: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        const { sql, parameters } = db.getExecutor().compileQuery(node, queryId);
        onQuery({ sql, parameters });
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    return db.withPlugin(plugin);
  };
}
