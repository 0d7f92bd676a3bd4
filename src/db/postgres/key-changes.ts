import { ColumnNode, DeleteQueryNode, InsertQueryNode, TableNode, UpdateQueryNode } from 'kysely';
import type { OperationNode } from 'kysely';

/** Tables whose writes can make a verified key invalid: a revoked key, a disabled account. */
const KEY_TABLES = new Set(['api_keys', 'accounts']);

const tableName = (node: OperationNode | undefined): string | null => (node && TableNode.is(node) ? node.table.identifier.name : null);

/**
 * Whether a query this process runs could end the trust in a verified key: any insert, update
 * or delete on a key table, except the `last_used_at` bookkeeping, which changes no verdict.
 */
export function changesKeys(node: OperationNode): boolean {
  if (UpdateQueryNode.is(node)) {
    if (!KEY_TABLES.has(tableName(node.table) ?? '')) return false;
    const columns = (node.updates ?? []).map((update) => (ColumnNode.is(update.column) ? update.column.column.name : ''));
    return !columns.every((column) => column === 'last_used_at');
  }
  if (InsertQueryNode.is(node)) return KEY_TABLES.has(tableName(node.into) ?? '');
  if (DeleteQueryNode.is(node)) return node.from.froms.some((from) => KEY_TABLES.has(tableName(from) ?? ''));
  return false;
}
