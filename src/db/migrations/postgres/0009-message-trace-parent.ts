import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// A message remembers the W3C traceparent of the request that queued it, so its delivery, in
// whichever instance and however much later, is traced as a span linked to that request. Null
// when tracing was off. An expand step: releases before it never read or write the column.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('trace_parent', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('trace_parent').execute();
}
