==== 0001-initial
+ index api_keys_account_id
CREATE INDEX "api_keys_account_id" on "api_keys" ("account_id");
+ index messages_account_id
CREATE INDEX "messages_account_id" on "messages" ("account_id");
+ index pets_status_id
CREATE INDEX "pets_status_id" on "pets" ("status", "id");
+ table accounts
CREATE TABLE "accounts" ("id" integer primary key autoincrement, "name" text not null unique, "created_at" text not null);
+ table api_keys
CREATE TABLE "api_keys" ("id" integer primary key autoincrement, "account_id" integer not null references "accounts" ("id"), "prefix" text not null unique, "key_hash" text not null, "created_at" text not null, "last_used_at" text, "revoked_at" text);
+ table messages
CREATE TABLE "messages" ("id" text primary key, "account_id" integer not null references "accounts" ("id"), "message" text not null, "status" text not null, "created_at" text not null);
+ table pets
CREATE TABLE "pets" ("id" integer primary key autoincrement, "name" text not null, "category_id" bigint not null, "status" text not null check (status in ('available', 'pending', 'sold')), "created_at" text not null);

==== 0002-orders-and-delivery
+ index messages_status_next_attempt
CREATE INDEX "messages_status_next_attempt" on "messages" ("status", "next_attempt_at");
+ index orders_account_id
CREATE INDEX "orders_account_id" on "orders" ("account_id", "id");
+ index orders_account_status_id
CREATE INDEX "orders_account_status_id" on "orders" ("account_id", "status", "id");
+ index orders_pet_id
CREATE INDEX "orders_pet_id" on "orders" ("pet_id");
~ table messages
CREATE TABLE "messages" ("id" text primary key, "account_id" integer not null references "accounts" ("id"), "message" text not null, "status" text not null, "created_at" text not null, "updated_at" text, "attempts" integer default 0 not null, "next_attempt_at" text, "claimed_until" text, "failure_reason" text);
+ table orders
CREATE TABLE "orders" ("id" integer primary key autoincrement, "account_id" integer not null references "accounts" ("id"), "pet_id" integer not null references "pets" ("id"), "quantity" integer not null check (quantity >= 1), "ship_date" text, "status" text not null check (status in ('placed', 'approved', 'delivered')), "complete" boolean default false not null, "created_at" text not null, "updated_at" text not null);

==== 0003-idempotency-keys
+ index idempotency_keys_created_at
CREATE INDEX "idempotency_keys_created_at" on "idempotency_keys" ("created_at");
+ table idempotency_keys
CREATE TABLE "idempotency_keys" ("account_id" integer not null references "accounts" ("id"), "key" text not null, "fingerprint" text not null, "status_code" integer, "response_body" text, "location" text, "created_at" text not null, constraint "idempotency_keys_pk" primary key ("account_id", "key"));

==== 0004-api-key-hash-index
+ index api_keys_key_hash
CREATE UNIQUE INDEX "api_keys_key_hash" on "api_keys" ("key_hash");

==== 0005-drop-order-complete
~ table orders
CREATE TABLE "orders" ("id" integer primary key autoincrement, "account_id" integer not null references "accounts" ("id"), "pet_id" integer not null references "pets" ("id"), "quantity" integer not null check (quantity >= 1), "ship_date" text, "status" text not null check (status in ('placed', 'approved', 'delivered')), "created_at" text not null, "updated_at" text not null);

==== 0006-key-epoch


==== 0007-key-names-and-disabled-accounts
~ table accounts
CREATE TABLE "accounts" ("id" integer primary key autoincrement, "name" text not null unique, "created_at" text not null, "disabled_at" text);
~ table api_keys
CREATE TABLE "api_keys" ("id" integer primary key autoincrement, "account_id" integer not null references "accounts" ("id"), "prefix" text not null unique, "key_hash" text not null, "created_at" text not null, "last_used_at" text, "revoked_at" text, "name" text);

==== 0008-row-counts
+ table row_counts
CREATE TABLE row_counts (name text primary key, value integer not null) without rowid;
+ trigger orders_counted_delete
CREATE TRIGGER orders_counted_delete after delete on orders begin
       
    insert into row_counts (name, value) values ('orders:' || old.account_id, -1), ('orders:' || old.account_id || ':' || old.status, -1)
    on conflict (name) do update set value = row_counts.value + excluded.value;
     end;
+ trigger orders_counted_insert
CREATE TRIGGER orders_counted_insert after insert on orders begin
       
    insert into row_counts (name, value) values ('orders:' || new.account_id, 1), ('orders:' || new.account_id || ':' || new.status, 1)
    on conflict (name) do update set value = row_counts.value + excluded.value;
     end;
+ trigger orders_counted_status
CREATE TRIGGER orders_counted_status after update of status on orders when old.status <> new.status begin
       
    insert into row_counts (name, value) values ('orders:' || old.account_id || ':' || old.status, -1), ('orders:' || new.account_id || ':' || new.status, 1)
    on conflict (name) do update set value = row_counts.value + excluded.value;
     end;
+ trigger pets_counted_delete
CREATE TRIGGER pets_counted_delete after delete on pets begin
       
    insert into row_counts (name, value) values ('pets', -1), ('pets:' || old.status, -1)
    on conflict (name) do update set value = row_counts.value + excluded.value;
     end;
+ trigger pets_counted_insert
CREATE TRIGGER pets_counted_insert after insert on pets begin
       
    insert into row_counts (name, value) values ('pets', 1), ('pets:' || new.status, 1)
    on conflict (name) do update set value = row_counts.value + excluded.value;
     end;
+ trigger pets_counted_status
CREATE TRIGGER pets_counted_status after update of status on pets when old.status <> new.status begin
       
    insert into row_counts (name, value) values ('pets:' || old.status, -1), ('pets:' || new.status, 1)
    on conflict (name) do update set value = row_counts.value + excluded.value;
     end;

==== 0009-message-trace-parent
~ table messages
CREATE TABLE "messages" ("id" text primary key, "account_id" integer not null references "accounts" ("id"), "message" text not null, "status" text not null, "created_at" text not null, "updated_at" text, "attempts" integer default 0 not null, "next_attempt_at" text, "claimed_until" text, "failure_reason" text, "trace_parent" text);

==== 0010-table-versions
+ table table_versions
CREATE TABLE table_versions (name text primary key, version integer not null) without rowid;
+ trigger messages_versioned_delete
CREATE TRIGGER messages_versioned_delete after delete on messages begin
             update table_versions set version = version + 1 where name = 'messages';
           end;
+ trigger messages_versioned_insert
CREATE TRIGGER messages_versioned_insert after insert on messages begin
             update table_versions set version = version + 1 where name = 'messages';
           end;
+ trigger messages_versioned_update
CREATE TRIGGER messages_versioned_update after update on messages begin
             update table_versions set version = version + 1 where name = 'messages';
           end;
+ trigger orders_versioned_delete
CREATE TRIGGER orders_versioned_delete after delete on orders begin
             update table_versions set version = version + 1 where name = 'orders';
           end;
+ trigger orders_versioned_insert
CREATE TRIGGER orders_versioned_insert after insert on orders begin
             update table_versions set version = version + 1 where name = 'orders';
           end;
+ trigger orders_versioned_update
CREATE TRIGGER orders_versioned_update after update on orders begin
             update table_versions set version = version + 1 where name = 'orders';
           end;
+ trigger pets_versioned_delete
CREATE TRIGGER pets_versioned_delete after delete on pets begin
             update table_versions set version = version + 1 where name = 'pets';
           end;
+ trigger pets_versioned_insert
CREATE TRIGGER pets_versioned_insert after insert on pets begin
             update table_versions set version = version + 1 where name = 'pets';
           end;
+ trigger pets_versioned_update
CREATE TRIGGER pets_versioned_update after update on pets begin
             update table_versions set version = version + 1 where name = 'pets';
           end;

==== 0011-unique-versions
+ trigger messages_versioned_per_account_delete
CREATE TRIGGER messages_versioned_per_account_delete after delete on messages begin
         
    insert into table_versions (name, version) select name, random() & 9007199254740991 from (select 'messages:' || old.account_id as name)
    where true on conflict (name) do update set version = excluded.version;
       end;
+ trigger messages_versioned_per_account_insert
CREATE TRIGGER messages_versioned_per_account_insert after insert on messages begin
         
    insert into table_versions (name, version) select name, random() & 9007199254740991 from (select 'messages:' || new.account_id as name)
    where true on conflict (name) do update set version = excluded.version;
       end;
+ trigger messages_versioned_per_account_update
CREATE TRIGGER messages_versioned_per_account_update after update on messages begin
         
    insert into table_versions (name, version) select name, random() & 9007199254740991 from (select 'messages:' || old.account_id as name union select 'messages:' || new.account_id)
    where true on conflict (name) do update set version = excluded.version;
       end;
+ trigger orders_versioned_per_account_delete
CREATE TRIGGER orders_versioned_per_account_delete after delete on orders begin
         
    insert into table_versions (name, version) select name, random() & 9007199254740991 from (select 'orders:' || old.account_id as name)
    where true on conflict (name) do update set version = excluded.version;
       end;
+ trigger orders_versioned_per_account_insert
CREATE TRIGGER orders_versioned_per_account_insert after insert on orders begin
         
    insert into table_versions (name, version) select name, random() & 9007199254740991 from (select 'orders:' || new.account_id as name)
    where true on conflict (name) do update set version = excluded.version;
       end;
+ trigger orders_versioned_per_account_update
CREATE TRIGGER orders_versioned_per_account_update after update on orders begin
         
    insert into table_versions (name, version) select name, random() & 9007199254740991 from (select 'orders:' || old.account_id as name union select 'orders:' || new.account_id)
    where true on conflict (name) do update set version = excluded.version;
       end;
- trigger pets_versioned_delete
- trigger pets_versioned_insert
+ trigger pets_versioned_uniquely_delete
CREATE TRIGGER pets_versioned_uniquely_delete after delete on pets begin
         update table_versions set version = random() & 9007199254740991 where name = 'pets';
       end;
+ trigger pets_versioned_uniquely_insert
CREATE TRIGGER pets_versioned_uniquely_insert after insert on pets begin
         update table_versions set version = random() & 9007199254740991 where name = 'pets';
       end;
+ trigger pets_versioned_uniquely_update
CREATE TRIGGER pets_versioned_uniquely_update after update on pets begin
         update table_versions set version = random() & 9007199254740991 where name = 'pets';
       end;
- trigger pets_versioned_update

==== 0012-token-identities-and-key-scopes
+ table account_identities
CREATE TABLE "account_identities" ("issuer" text not null, "subject" text not null, "account_id" integer not null references "accounts" ("id"), "created_at" text not null, constraint "account_identities_pkey" primary key ("issuer", "subject"));
~ table api_keys
CREATE TABLE "api_keys" ("id" integer primary key autoincrement, "account_id" integer not null references "accounts" ("id"), "prefix" text not null unique, "key_hash" text not null, "created_at" text not null, "last_used_at" text, "revoked_at" text, "name" text, "scopes" text);

==== 0013-ids-follow-timeline

