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
