import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_NODE, unsupportedNode } from '../../bin/supported-node.js';

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };

// What `npm ci` compares when it prints EBADENGINE: every locked package's engines.node against this Node.
function unsupported(node: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !Array.isArray(entry.engines) && entry.engines?.node)
    .filter(([, entry]) => !semver.satisfies(node, (entry.engines as { node: string }).node, { includePrerelease: true }))
    .map(
      ([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} needs node ${(entry.engines as { node: string }).node}`,
    );
}

describe('install on the Node version package.json promises', () => {
  it('locks no package that refuses this Node (npm ci prints no EBADENGINE)', () => {
    expect(unsupported(process.version)).toEqual([]);
  });

  it('locks no package that refuses the oldest Node of each line engines admits (22, 24, 26: the ones CI runs)', () => {
    const oldest = manifest.engines.node.split('||').map((set) => semver.minVersion(set.trim())?.version);
    expect(oldest).toEqual(['22.18.0', '24.0.0', '26.0.0']);
    for (const version of oldest) expect(unsupported(version ?? ''), version).toEqual([]);
    // Not admitted: Node 20 (end of life, retired) and the lines CI does not run.
    for (const other of ['20.20.2', '21.7.0', '22.17.1', '23.11.0', '25.9.0', '27.0.0'])
      expect(semver.satisfies(other, manifest.engines.node), other).toBe(false);
  });

  it('refuses at start exactly the Node versions engines does not admit (bin/supported-node.js)', () => {
    const oldest = manifest.engines.node.split('||').map((set) => semver.minVersion(set.trim())?.version);
    expect(SUPPORTED_NODE).toEqual(oldest);
    for (const version of ['20.20.2', '22.17.1', '22.18.0', '24.0.0', '24.21.0', '26.0.0', '26.12.1']) {
      expect(unsupportedNode(`v${version}`) === null, version).toBe(semver.satisfies(version, manifest.engines.node));
    }
  });
});
