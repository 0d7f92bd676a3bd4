import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

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

  it('locks no package that refuses the oldest Node of each line engines admits (20, 22, 24: the ones CI runs)', () => {
    const oldest = manifest.engines.node.split('||').map((set) => semver.minVersion(set.trim())?.version);
    expect(oldest).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    for (const version of oldest) expect(unsupported(version ?? ''), version).toEqual([]);
    // Not admitted: the lines CI does not run.
    for (const other of ['18.20.0', '21.7.0', '23.11.0', '26.0.0'])
      expect(semver.satisfies(other, manifest.engines.node), other).toBe(false);
  });
});
