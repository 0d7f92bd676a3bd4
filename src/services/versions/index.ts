export { readVersions } from './read-versions.ts';
export type { Versions, VersionedTable } from './read-versions.ts';
