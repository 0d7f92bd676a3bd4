import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from './helpers/fixtures.ts';
import { errorCatalogue } from '../src/errors/index.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const restApi = readFileSync(new URL('../docs/rest-api.md', import.meta.url), 'utf8');

interface Step {
  command: string;
  /** The `# ` lines right under the command: what it prints, `…` standing for anything. */
  expected: string[];
}

/** The walkthrough's shell block, as commands and the output lines written under each. */
function walkthrough(): Step[] {
  const section = readme.slice(readme.indexOf('## A walk through with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const steps: Step[] = [];
  let last: Step | null = null;
  let continued = '';
  for (const line of block.split('\n')) {
    if (continued || (line.trim() !== '' && !line.startsWith('#'))) {
      const text = continued + line;
      continued = text.endsWith('\\') ? `${text}\n` : '';
      if (!continued) steps.push((last = { command: text, expected: [] }));
    } else if (line.startsWith('# ') && last) {
      last.expected.push(line.slice(2));
    } else {
      last = null;
    }
  }
  return steps;
}

function matcher(expected: string): RegExp {
  return new RegExp(
    `^${expected
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

describe('README', () => {
  it('links every page of the manual, and each page exists', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)]+\.md)\)/g)].map((m) => m[1] ?? '');
    expect(links.length).toBeGreaterThanOrEqual(7);
    for (const link of links) expect(existsSync(new URL(`../${link}`, import.meta.url)), link).toBe(true);
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(8 * 1024);
  });
});

describe('docs/rest-api.md', () => {
  it('lists exactly the error codes of the catalogue, each with its status', () => {
    const rows = [...restApi.matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(rows).toEqual(Object.entries(errorCatalogue).map(([code, { status }]) => [code, status]));
  });

  it('gives the quick start and test commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });
});

describe('the README walkthrough, pasted in order on a fresh database', { timeout: 180_000 }, () => {
  it('prints what the README says after every command', async ({ databaseUrl, serve }) => {
    const server = await serve({ DATABASE_URL: databaseUrl });
    const key = /psk_[A-Za-z0-9]{40}/.exec(server.output())?.[0] ?? '';
    expect(key).not.toBe('');
    const steps = walkthrough();
    expect(steps.length).toBeGreaterThan(10);
    // The two lines a reader fills in: the key first start printed, and (here) the server's port.
    const script = steps
      .map((step, i) => {
        const command = step.command.replace(/^export KEY=psk_….*$/, `export KEY=${key}`).replace('http://localhost:4000', server.origin);
        return `printf '\\n@@step ${i}\\n'\n${command}\nprintf '\\n'`;
      })
      .join('\n');
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    const outputs = run.stdout.split(/\n@@step \d+\n/).slice(1);
    expect(outputs).toHaveLength(steps.length);
    steps.forEach((step, i) => {
      const lines = (outputs[i] ?? '').replaceAll('\r', '').split('\n');
      let from = 0;
      for (const expected of step.expected) {
        const at = lines.findIndex((line, n) => n >= from && matcher(expected).test(line));
        expect(at, `"${step.command.slice(0, 60)}…" should print ${expected}\nit printed:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
        from = at + 1;
      }
    });
  });
});
