export { readVersions, VERSIONED_TABLES } from './read-versions.ts';
export type { Versions, VersionedTable } from './read-versions.ts';
