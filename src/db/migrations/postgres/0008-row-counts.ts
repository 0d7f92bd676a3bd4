import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// PostgreSQL's twin of sqlite/0008-row-counts: counts read in one row, kept by triggers in the
// writing transaction. Concurrent writers wait on a counter row until the other commits, so a
// trigger touches its rows in name order (available < pending < sold; orders:1 < orders:1:placed):
// two transactions never lock two counters in opposite orders.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table row_counts (name text primary key, value bigint not null);

    create function add_to_counts(names text[], deltas bigint[]) returns void language sql as $$
      insert into row_counts (name, value)
        select name, delta from unnest(names, deltas) as change (name, delta) order by name
      on conflict (name) do update set value = row_counts.value + excluded.value;
    $$;

    create function count_pets() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform add_to_counts(array['pets', 'pets:' || new.status], array[1, 1]);
      elsif tg_op = 'DELETE' then
        perform add_to_counts(array['pets', 'pets:' || old.status], array[-1, -1]);
      else
        perform add_to_counts(array['pets:' || old.status, 'pets:' || new.status], array[-1, 1]);
      end if;
      return null;
    end $$;
    create trigger pets_counted after insert or delete on pets for each row execute function count_pets();
    create trigger pets_counted_status after update of status on pets
      for each row when (old.status is distinct from new.status) execute function count_pets();

    create function count_orders() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform add_to_counts(array['orders:' || new.account_id, 'orders:' || new.account_id || ':' || new.status], array[1, 1]);
      elsif tg_op = 'DELETE' then
        perform add_to_counts(array['orders:' || old.account_id, 'orders:' || old.account_id || ':' || old.status], array[-1, -1]);
      else
        perform add_to_counts(
          array['orders:' || old.account_id || ':' || old.status, 'orders:' || new.account_id || ':' || new.status], array[-1, 1]);
      end if;
      return null;
    end $$;
    create trigger orders_counted after insert or delete on orders for each row execute function count_orders();
    create trigger orders_counted_status after update of status on orders
      for each row when (old.status is distinct from new.status) execute function count_orders();

    insert into row_counts (name, value)
      select 'pets', count(*) from pets
      union all select 'pets:' || status, count(*) from pets group by status
      union all select 'orders:' || account_id, count(*) from orders group by account_id
      union all select 'orders:' || account_id || ':' || status, count(*) from orders group by account_id, status;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger orders_counted_status on orders;
    drop trigger orders_counted on orders;
    drop function count_orders();
    drop trigger pets_counted_status on pets;
    drop trigger pets_counted on pets;
    drop function count_pets();
    drop function add_to_counts(text[], bigint[]);
    drop table row_counts;
  `.execute(db);
}
