import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// PostgreSQL's twin of sqlite/0011-unique-versions: every write sets a random version (53 bits)
// instead of counting, so a version names one state of one database's history, whatever is
// restored or created beside it; orders and messages get a version per account. 0010's
// counters for `orders` and `messages` keep moving for the release before this one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function version_token() returns bigint language sql volatile as $$
      select floor(random() * 9007199254740991)::bigint
    $$;

    create function bump_version_of_pets() returns trigger language plpgsql as $$
    begin
      update table_versions set version = version_token() where name = 'pets';
      return null;
    end $$;
    drop trigger pets_versioned on pets;
    create trigger pets_versioned_uniquely after insert or update or delete on pets
      for each row execute function bump_version_of_pets();
    update table_versions set version = version_token() where name = 'pets';

    create function bump_version_of_account() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        insert into table_versions (name, version) values (tg_table_name || ':' || old.account_id, version_token())
          on conflict (name) do update set version = excluded.version;
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.account_id <> old.account_id) then
        insert into table_versions (name, version) values (tg_table_name || ':' || new.account_id, version_token())
          on conflict (name) do update set version = excluded.version;
      end if;
      return null;
    end $$;
    create trigger orders_versioned_per_account after insert or update or delete on orders
      for each row execute function bump_version_of_account();
    create trigger messages_versioned_per_account after insert or update or delete on messages
      for each row execute function bump_version_of_account();
    insert into table_versions (name, version)
      select 'orders:' || id, version_token() from accounts
      union all select 'messages:' || id, version_token() from accounts;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger messages_versioned_per_account on messages;
    drop trigger orders_versioned_per_account on orders;
    drop function bump_version_of_account();
    delete from table_versions where name like 'orders:%' or name like 'messages:%';
    drop trigger pets_versioned_uniquely on pets;
    drop function bump_version_of_pets();
    create trigger pets_versioned after insert or update or delete on pets for each row execute function bump_table_version();
    drop function version_token();
  `.execute(db);
}
