export { readVersions } from './read-versions.ts';
export type { Versions } from './read-versions.ts';
export { VERSIONED_TABLES } from '../../db/versioned-tables.ts';
export type { VersionedTable } from '../../db/versioned-tables.ts';
