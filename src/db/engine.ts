import { PostgresAdapter, sql } from 'kysely';
import type { QueryExecutor, RawBuilder } from 'kysely';

/** Anything that runs queries: a Kysely instance, a transaction, one with plugins. */
export interface Queryable {
  getExecutor(): QueryExecutor;
}

export type Engine = 'sqlite' | 'postgres';

/** Which engine a database runs on: read from Kysely's adapter, so a database wrapped with plugins still knows. */
export function engineOf(db: Queryable): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * The database's clock as stored timestamps are written: ISO 8601 UTC with milliseconds
 * (`2026-11-22T12:00:00.123Z`), `offsetMs` from now. Leases and retry times use it so that
 * several hosts agree on "now", whatever their own clocks say.
 */
export function databaseTime(db: Queryable, offsetMs = 0): RawBuilder<string> {
  const seconds = offsetMs / 1000;
  return engineOf(db) === 'postgres'
    ? sql<string>`to_char((now() + make_interval(secs => ${seconds}::float8)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`${seconds >= 0 ? '+' : ''}${seconds.toFixed(3)} seconds`})`;
}

// pg_advisory_xact_lock(class, object): one class for this service, one object per table.
const LOCK_CLASS = 0x7e75;
const INSERT_LOCKS = { pets: 1, orders: 2 } as const;

/**
 * The id for a new row of `table`, drawn so that rows become visible in id order, or
 * undefined to let the column's own default draw it (Kysely leaves undefined values out).
 *
 * On PostgreSQL an id is drawn when a row is inserted but seen when its transaction commits,
 * so id 2 can appear after id 3, and a reader paging by `id > 3` would never see it. Here the
 * id is drawn only after a transaction-scoped advisory lock on the table, held until commit:
 * inserts into one table take turns, and commit in id order. SQLite has one writer at a time
 * already, so its ids are always seen in order.
 */
export function idInOrder(db: Queryable, table: keyof typeof INSERT_LOCKS): RawBuilder<number> | undefined {
  if (engineOf(db) !== 'postgres') return undefined;
  const lock = sql`pg_advisory_xact_lock(${sql.lit(LOCK_CLASS)}, ${sql.lit(INSERT_LOCKS[table])})`;
  return sql<number>`(select nextval(pg_get_serial_sequence(${sql.lit(table)}, 'id')) from (select ${lock}) as id_order)`;
}

/** `for update skip locked` where the engine has it (PostgreSQL); SQLite has one writer, so nothing to skip. */
export function skipLockedRows(db: Queryable): boolean {
  return engineOf(db) === 'postgres';
}

// Per-row turns take a class of their own, the row's id as the object.
const ROW_TURNS = { 'account-keys': LOCK_CLASS + 1 } as const;

/**
 * Makes the rest of the transaction take turns with every other transaction that asks for the
 * same `scope` and `id` (until commit): a count-then-insert is then exact. PostgreSQL needs a
 * transaction-scoped advisory lock for that; SQLite's single writer already gives it, so this
 * is a no-op there.
 */
export async function takeTurns(db: Queryable, scope: keyof typeof ROW_TURNS, id: number): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${sql.lit(ROW_TURNS[scope])}, ${id}::int4)`.execute(db);
}
