import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// Counts that cost one row to read, whatever the size of the table: `pets`, `pets:<status>`,
// `orders:<account>` and `orders:<account>:<status>`, kept by triggers in the same transaction
// as every write that changes them (the API's, the CLI's, anyone's), and filled from the
// rows already there.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table row_counts (name text primary key, value integer not null) without rowid`.execute(db);
  const add = (values: string) => `
    insert into row_counts (name, value) values ${values}
    on conflict (name) do update set value = row_counts.value + excluded.value;`;
  for (const statement of [
    `create trigger pets_counted_insert after insert on pets begin
       ${add(`('pets', 1), ('pets:' || new.status, 1)`)}
     end`,
    `create trigger pets_counted_delete after delete on pets begin
       ${add(`('pets', -1), ('pets:' || old.status, -1)`)}
     end`,
    `create trigger pets_counted_status after update of status on pets when old.status <> new.status begin
       ${add(`('pets:' || old.status, -1), ('pets:' || new.status, 1)`)}
     end`,
    `create trigger orders_counted_insert after insert on orders begin
       ${add(`('orders:' || new.account_id, 1), ('orders:' || new.account_id || ':' || new.status, 1)`)}
     end`,
    `create trigger orders_counted_delete after delete on orders begin
       ${add(`('orders:' || old.account_id, -1), ('orders:' || old.account_id || ':' || old.status, -1)`)}
     end`,
    `create trigger orders_counted_status after update of status on orders when old.status <> new.status begin
       ${add(`('orders:' || old.account_id || ':' || old.status, -1), ('orders:' || new.account_id || ':' || new.status, 1)`)}
     end`,
    `insert into row_counts (name, value)
       select 'pets', count(*) from pets
       union all select 'pets:' || status, count(*) from pets group by status
       union all select 'orders:' || account_id, count(*) from orders group by account_id
       union all select 'orders:' || account_id || ':' || status, count(*) from orders group by account_id, status`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of [
    'pets_counted_insert',
    'pets_counted_delete',
    'pets_counted_status',
    'orders_counted_insert',
    'orders_counted_delete',
    'orders_counted_status',
  ]) {
    await sql.raw(`drop trigger ${trigger}`).execute(db);
  }
  await sql`drop table row_counts`.execute(db);
}
