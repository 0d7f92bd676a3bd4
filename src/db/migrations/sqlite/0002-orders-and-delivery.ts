import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id'))
    .addColumn('pet_id', 'integer', (col) => col.notNull().references('pets.id'))
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity >= 1`))
    .addColumn('ship_date', 'text')
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('placed', 'approved', 'delivered')`))
    .addColumn('complete', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  // Serves an account's orders in id order, with and without the status filter.
  await db.schema.createIndex('orders_account_status_id').on('orders').columns(['account_id', 'status', 'id']).execute();
  await db.schema.createIndex('orders_account_id').on('orders').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('orders_pet_id').on('orders').column('pet_id').execute();

  // Delivery state of the message outbox.
  await db.schema.alterTable('messages').addColumn('updated_at', 'text').execute();
  await db.schema
    .alterTable('messages')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('messages').addColumn('next_attempt_at', 'text').execute();
  await db.schema.alterTable('messages').addColumn('claimed_until', 'text').execute();
  await db.schema.alterTable('messages').addColumn('failure_reason', 'text').execute();
  await sql`update messages set updated_at = created_at, next_attempt_at = created_at`.execute(db);
  // The worker's question: which queued messages are due?
  await db.schema.createIndex('messages_status_next_attempt').on('messages').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_status_next_attempt').execute();
  for (const column of ['failure_reason', 'claimed_until', 'next_attempt_at', 'attempts', 'updated_at']) {
    await db.schema.alterTable('messages').dropColumn(column).execute();
  }
  await db.schema.dropTable('orders').execute();
}
