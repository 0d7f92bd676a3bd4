import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { directRunOf } from './direct-runs.ts';

/** Stands in for argument `index` while the query is built once; never reaches the database. */
class Slot {
  constructor(readonly index: number) {}
}

interface Prepared<Row> {
  query: CompiledQuery<Row>;
  /** Per compiled parameter: the argument it takes, or -1 for a value fixed at build time. */
  slots: number[];
}

function prepare<DB, Args extends readonly unknown[], Row>(
  db: Kysely<DB>,
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
  arity: number,
): Prepared<Row> {
  const markers = Array.from({ length: arity }, (_, index) => new Slot(index));
  const query = build(db, ...(markers as unknown as Args)).compile();
  const slots = query.parameters.map((p) => (p instanceof Slot ? p.index : -1));
  // An argument the compiled SQL never binds would be silently ignored at every call.
  if (markers.some((m) => !slots.includes(m.index))) throw new TypeError('preparedQuery: every argument must become a query parameter');
  return { query, slots };
}

/**
 * Outside production every call builds the query again with its real arguments and checks it is
 * the shape built once: a builder that branches on an argument (taken once, with stand-ins, and
 * frozen) fails the first test that takes the other branch, not a user in production. Read once:
 * the process's NODE_ENV is fixed for its life.
 */
const VERIFY_SHAPE = process.env.NODE_ENV !== 'production';

/**
 * A query Kysely builds and compiles once per database (its transactions included), then runs
 * with each call's arguments bound in place. Building and compiling cost 10-15 µs a query in a
 * profile, several times SQLite's own work for a key lookup, so the per-request queries skip
 * it. Arguments must be values the query binds as parameters (not identifiers or SQL
 * fragments), every one given at every call, and the builder must not branch on them: while it
 * is built they are stand-ins, so a branch would be taken once and frozen (VERIFY_SHAPE catches
 * one outside production). A database with plugins compiles on every call, since a plugin may
 * rewrite each query.
 */
export function preparedQuery<DB, Args extends readonly unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  // By the database's adapter, which its transactions share (Kysely gives each its own executor
  // over the same compiler and adapter): a statement in a transaction is prepared once too. Each
  // Kysely gets an adapter of its own from its dialect (createAdapter, on both engines' dialects).
  const byDialect = new WeakMap<object, Prepared<Row>>();
  return async (db, ...args) => {
    // One shape per builder: a call that leaves out an optional argument would get the shape
    // built with it (or without it), whichever came first. Write one builder per shape.
    if (args.length !== build.length - 1) {
      throw new TypeError(`preparedQuery: called with ${args.length} arguments, built with ${build.length - 1}`);
    }
    if (db.getExecutor().plugins.length > 0) return (await db.executeQuery(build(db, ...args))).rows;
    const { adapter } = db.getExecutor();
    let prepared = byDialect.get(adapter);
    if (!prepared) {
      prepared = prepare(db, build, args.length);
      byDialect.set(adapter, prepared);
    }
    const { query, slots } = prepared;
    if (VERIFY_SHAPE) {
      const fresh = build(db, ...args).compile();
      if (fresh.sql !== query.sql) {
        throw new TypeError(
          `preparedQuery: the builder branched on its arguments (built once as: ${query.sql}; now: ${fresh.sql}): write one builder per shape`,
        );
      }
    }
    const bound: CompiledQuery<Row> = { ...query, parameters: slots.map((slot, i) => (slot < 0 ? query.parameters[i] : args[slot])) };
    const ran = directRunOf(db)?.(bound) ?? db.executeQuery(bound);
    // A result already here is not awaited: awaiting a value makes a promise of it first.
    return ran instanceof Promise ? (await ran).rows : ran.rows;
  };
}
