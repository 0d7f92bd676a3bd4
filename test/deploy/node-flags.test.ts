import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startScript } from '../helpers/start-script.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The `--` words between `node` and `bin/petstore.js` in a command line. */
const nodeFlags = (words: string[]) =>
  words.slice(
    words.indexOf('node') + 1,
    words.findIndex((word) => word.endsWith('bin/petstore.js')),
  );

// The heap flags and the allocator's setting decide the server's memory (docs/operations.md):
// every way the project starts the server passes the same ones, so a change made in one place
// cannot miss the others.
describe('the Node flags the server starts with', () => {
  it('are the same in npm start, the systemd unit, the Containerfile and the image build', () => {
    const unit = /^ExecStart=(.*)$/m.exec(read('deploy/systemd/petstore.service'))?.[1] ?? '';
    const containerfile = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(read('deploy/image/Containerfile'))?.[1] ?? '[]') as string[];
    const built = [...read('deploy/image/build-image.sh').matchAll(/--config\.entrypoint (\S+)/g)].map((match) => match[1] ?? '');
    const expected = startScript(ROOT).flags;
    expect(expected).toContain('--heap-growing-percent=50');
    expect({
      unit: nodeFlags(unit.split(' ')),
      containerfile: nodeFlags(containerfile),
      built: nodeFlags(built),
    }).toEqual({ unit: expected, containerfile: expected, built: expected });
  });

  it('and the same environment: npm start’s `env` words are set by the unit, the Containerfile and the image build', () => {
    const expected = Object.entries(startScript(ROOT).env).map(([name, value]) => `${name}=${value}`);
    expect(expected).toContain('MALLOC_ARENA_MAX=2');
    const unit = [...read('deploy/systemd/petstore.service').matchAll(/^Environment=(.*)$/gm)].flatMap((match) =>
      (match[1] ?? '').split(' '),
    );
    const containerfile = (/^ENV (.*)$/m.exec(read('deploy/image/Containerfile'))?.[1] ?? '').split(' ');
    const built = [...read('deploy/image/build-image.sh').matchAll(/--config\.env (\S+)/g)].map((match) => match[1] ?? '');
    const missing = (words: string[]) => expected.filter((word) => !words.includes(word));
    expect({ unit: missing(unit), containerfile: missing(containerfile), built: missing(built) }).toEqual({
      unit: [],
      containerfile: [],
      built: [],
    });
  });
});
