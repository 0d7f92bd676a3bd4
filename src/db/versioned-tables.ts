/**
 * The tables answers are read from, each with whose version it keeps: everyone's (`pets`), or
 * each account's (`orders:<account>`, `messages:<account>`, the caller's own rows). A table here
 * must have triggers that move its version on every insert, update and delete (migrations 0010
 * and 0011); test/db/table-versions.test.ts checks them on both engines. Everything else (the
 * versions read, the cache's keys, the ETags) is built from this list.
 */
export const VERSIONED_TABLES = { pets: 'shared', orders: 'per-account', messages: 'per-account' } as const;

/** What an answer can be read from. */
export type VersionedTable = keyof typeof VERSIONED_TABLES;

/** The versioned tables' names, in the list's order: the order of the versions read. */
export const VERSIONED_TABLE_NAMES = Object.keys(VERSIONED_TABLES) as VersionedTable[];

/**
 * Tables answers read that no one writes but the versioned tables' own triggers (migration 0008:
 * the pets' count, and each account's orders'), so they are current whenever the versions of the
 * tables named are: they have no version of their own. test/graphql/reads.test.ts accepts a read
 * of one of these where the answer declares a table it is kept by, and no other table without a
 * version.
 */
export const DERIVED_TABLES: Readonly<Record<string, readonly VersionedTable[]>> = { row_counts: ['pets', 'orders'] };
