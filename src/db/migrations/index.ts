import type { Migration } from 'kysely/migration';
import type { Engine } from '../engine.ts';
import * as postgresInitial from './postgres/0001-initial.ts';
import * as postgresOrdersAndDelivery from './postgres/0002-orders-and-delivery.ts';
import * as postgresIdempotencyKeys from './postgres/0003-idempotency-keys.ts';
import * as postgresApiKeyHashIndex from './postgres/0004-api-key-hash-index.ts';
import * as postgresDropOrderComplete from './postgres/0005-drop-order-complete.ts';
import * as postgresKeyEpoch from './postgres/0006-key-epoch.ts';
import * as postgresKeyNamesAndDisabledAccounts from './postgres/0007-key-names-and-disabled-accounts.ts';
import * as postgresRowCounts from './postgres/0008-row-counts.ts';
import * as postgresMessageTraceParent from './postgres/0009-message-trace-parent.ts';
import * as postgresTableVersions from './postgres/0010-table-versions.ts';
import * as postgresUniqueVersions from './postgres/0011-unique-versions.ts';
import * as postgresTokenIdentities from './postgres/0012-token-identities-and-key-scopes.ts';
import * as postgresIdsFollowTimeline from './postgres/0013-ids-follow-timeline.ts';
import * as sqliteInitial from './sqlite/0001-initial.ts';
import * as sqliteOrdersAndDelivery from './sqlite/0002-orders-and-delivery.ts';
import * as sqliteIdempotencyKeys from './sqlite/0003-idempotency-keys.ts';
import * as sqliteApiKeyHashIndex from './sqlite/0004-api-key-hash-index.ts';
import * as sqliteDropOrderComplete from './sqlite/0005-drop-order-complete.ts';
import * as sqliteKeyEpoch from './sqlite/0006-key-epoch.ts';
import * as sqliteKeyNamesAndDisabledAccounts from './sqlite/0007-key-names-and-disabled-accounts.ts';
import * as sqliteRowCounts from './sqlite/0008-row-counts.ts';
import * as sqliteMessageTraceParent from './sqlite/0009-message-trace-parent.ts';
import * as sqliteTableVersions from './sqlite/0010-table-versions.ts';
import * as sqliteUniqueVersions from './sqlite/0011-unique-versions.ts';
import * as sqliteTokenIdentities from './sqlite/0012-token-identities-and-key-scopes.ts';
import * as sqliteIdsFollowTimeline from './sqlite/0013-ids-follow-timeline.ts';

/**
 * Listed by hand so migrations ship inside the program, with no file-system scan at startup.
 * Each engine has its own, under the same names in the same order: a database of either
 * records the same migration history.
 */
export const migrations: Record<Engine, Record<string, Migration>> = {
  sqlite: {
    '0001-initial': sqliteInitial,
    '0002-orders-and-delivery': sqliteOrdersAndDelivery,
    '0003-idempotency-keys': sqliteIdempotencyKeys,
    '0004-api-key-hash-index': sqliteApiKeyHashIndex,
    '0005-drop-order-complete': sqliteDropOrderComplete,
    '0006-key-epoch': sqliteKeyEpoch,
    '0007-key-names-and-disabled-accounts': sqliteKeyNamesAndDisabledAccounts,
    '0008-row-counts': sqliteRowCounts,
    '0009-message-trace-parent': sqliteMessageTraceParent,
    '0010-table-versions': sqliteTableVersions,
    '0011-unique-versions': sqliteUniqueVersions,
    '0012-token-identities-and-key-scopes': sqliteTokenIdentities,
    '0013-ids-follow-timeline': sqliteIdsFollowTimeline,
  },
  postgres: {
    '0001-initial': postgresInitial,
    '0002-orders-and-delivery': postgresOrdersAndDelivery,
    '0003-idempotency-keys': postgresIdempotencyKeys,
    '0004-api-key-hash-index': postgresApiKeyHashIndex,
    '0005-drop-order-complete': postgresDropOrderComplete,
    '0006-key-epoch': postgresKeyEpoch,
    '0007-key-names-and-disabled-accounts': postgresKeyNamesAndDisabledAccounts,
    '0008-row-counts': postgresRowCounts,
    '0009-message-trace-parent': postgresMessageTraceParent,
    '0010-table-versions': postgresTableVersions,
    '0011-unique-versions': postgresUniqueVersions,
    '0012-token-identities-and-key-scopes': postgresTokenIdentities,
    '0013-ids-follow-timeline': postgresIdsFollowTimeline,
  },
};

/**
 * Contract steps: migrations allowed to drop or rename a table or column, or change a column's
 * type (test/db/migration-lint.test.ts refuses any other that does). Each removes only what an
 * earlier release already stopped using (docs/operations.md, Upgrading).
 */
export const contractSteps: ReadonlySet<string> = new Set([
  // orders.complete: unused since release 0.1.0 derived it from status.
  '0005-drop-order-complete',
]);
