// The Node versions this release runs on, checked before anything else is loaded: on an older
// Node the first failure would be some package's syntax or a missing API, far from the cause.
// Kept in step with package.json's `engines` by test/install/engines.test.ts.

/** The oldest release of each Node line this release supports, newest line last. */
export const SUPPORTED_NODE = ['22.18.0', '24.0.0', '26.0.0'];

const parse = (version) => version.replace(/^v/, '').split('.').map(Number);

/** Why `version` (process.version's form) cannot run this release, or null when it can. */
export function unsupportedNode(version) {
  const [major, minor] = parse(version);
  const oldest = parse(SUPPORTED_NODE[0]);
  if (major > oldest[0] || (major === oldest[0] && minor >= oldest[1])) return null;
  const retired = major === 20 ? ' Node 20 reached its end of life on 2026-04-30 and is no longer supported.' : '';
  return (
    `Node ${version.replace(/^v/, '')} cannot run this release.${retired} ` +
    'Use Node 24 or 26 (LTS; 22.18 or newer still works until its end of life on 2027-04-30), ' +
    'then run `npm ci` again: better-sqlite3 and the dev tools are installed for one Node version.'
  );
}
