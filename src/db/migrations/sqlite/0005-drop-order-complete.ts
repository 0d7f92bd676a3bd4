import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// An order is complete exactly when it is delivered; the service derives it from `status`, so
// a second column that could disagree with it goes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('complete').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('complete', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
  await sql`update orders set complete = (status = 'delivered')`.execute(db);
}
