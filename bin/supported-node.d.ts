/** The oldest release of each Node line this release supports, newest line last. */
export declare const SUPPORTED_NODE: readonly string[];
/** Why `version` (process.version's form) cannot run this release, or null when it can. */
export declare function unsupportedNode(version: string): string | null;
