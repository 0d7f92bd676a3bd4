import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from './helpers/fixtures.ts';
import { KEY_CHANGES_POLL_MS } from '../src/db/data-version.ts';
import { errorCatalogue } from '../src/errors/index.ts';
import { appVersion } from '../src/config/version.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { KEY_USAGE_FLUSH_MS } from '../src/services/api-keys/key-usage.ts';

/** The README is the front page: what a newcomer reads first, short enough to read whole. */
const README_MAX_BYTES = 8 * 1024;
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const restApi = readFileSync(new URL('../docs/rest-api.md', import.meta.url), 'utf8');
const pages = ['README.md', ...readdirSync(new URL('../docs/', import.meta.url)).map((name) => `docs/${name}`)];
/** Every line of README and docs/, with its page and where it is. */
const docLines = pages.flatMap((page) =>
  readFileSync(new URL(`../${page}`, import.meta.url), 'utf8')
    .split('\n')
    .map((text, i) => ({ page, at: `${page}:${i + 1}`, text })),
);

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
  });

  it(`stays a front page: at most ${README_MAX_BYTES} bytes`, () => {
    const size = Buffer.byteLength(readme);
    expect(size, `README.md is ${size} bytes: move detail into its page under docs/ and link it`).toBeLessThanOrEqual(README_MAX_BYTES);
  });
});

describe('the commands the docs give', () => {
  it("never put a path after vitest's -u, which takes the next word as its value and updates the whole suite", () => {
    const wrong = docLines.filter(({ text }) => /vitest\b[^`\n]*\s(-u|--update)\s+(test\/|\.\/|[\w-]+\.(test|process)\.ts)/.test(text));
    expect(wrong.map(({ at }) => at)).toEqual([]);
  });
});

// The key-change bound is stated once (operations.md, Key changes) and linked from everywhere
// else; the code holds it once, and this holds the docs to both.
describe('the docs state the key-change bound once and the key-usage flush as the code sets them', () => {
  it(`a key revoked or an account disabled elsewhere: within ${KEY_CHANGES_POLL_MS} ms, said in one section that every mention links to`, () => {
    const operations = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
    const section = /\n### Key changes\n([\s\S]*?)\n#/.exec(operations)?.[1] ?? '';
    expect(section).toContain(`within **${KEY_CHANGES_POLL_MS} ms**`);
    const elsewhere = docLines.filter(({ text }) => !section.includes(text) && /revok|disabl|key_epoch|data_version/i.test(text));
    const figures = elsewhere.flatMap(({ at, text }) => [...text.matchAll(/(?:within|every) (\d+) ms/g)].map((m) => `${at}: ${m[0]}`));
    expect(figures).toEqual([]);
    const links = docLines.filter(({ text }) => text.includes('#key-changes'));
    expect(links.length).toBeGreaterThanOrEqual(10);
  });

  it(`last_used_at: written every ${KEY_USAGE_FLUSH_MS / 1000} s, wherever the docs say so`, () => {
    const said = docLines.flatMap(({ at, text }) =>
      /last_?used_?at/i.test(text) ? [...text.matchAll(/(?:every|up to) (\d+) s\b/g)].map((m) => [at, Number(m[1])]) : [],
    );
    expect(said.length).toBeGreaterThanOrEqual(2);
    expect(said.filter(([, s]) => s !== KEY_USAGE_FLUSH_MS / 1000)).toEqual([]);
  });
});

describe('the files the docs name', () => {
  const root = new URL('../', import.meta.url);
  /** Every file's name under the folders the docs point into, for names written without their folder. */
  const names = new Set([
    ...readdirSync(root),
    ...['src', 'test', 'bench', 'deploy', 'schema', 'examples/web/src'].flatMap((folder) =>
      readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' }).map((path) => path.split('/').pop()),
    ),
  ]);
  const quoted = docLines.flatMap(({ at, text }) => [...text.matchAll(/`([^`\s]+)`/g)].map((m) => ({ at, name: m[1] ?? '' })));

  it('exist: every path written from the top (src/…, test/…) and every file named alone (`mask-error.ts`)', () => {
    // A folder git ignores (`build/image/`) is made by a run, not cloned: a clean checkout has none.
    const made = readFileSync(new URL('.gitignore', root), 'utf8')
      .split('\n')
      .filter((line) => line.endsWith('/'));
    const paths = quoted.filter(
      ({ name }) =>
        /^(?:src|test|bench|deploy|schema|docs|examples|bin|\.ci)\//.test(name) &&
        !/[*…<{]/.test(name) &&
        !made.some((folder) => name.startsWith(folder)),
    );
    const files = quoted.filter(({ name }) => /^[\w.-]+\.(?:ts|sql|graphql)$/.test(name));
    expect(paths.length).toBeGreaterThan(50);
    expect(files.length).toBeGreaterThan(10);
    const missing = [
      ...paths.filter(({ name }) => !existsSync(new URL(name.replace(/(?::\d+|#.*)$/, ''), root))),
      ...files.filter(({ name }) => !names.has(name)),
    ];
    expect(missing.map(({ at, name }) => `${at}: ${name}`)).toEqual([]);
  });
});

describe('the sections the docs link to', () => {
  /** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens, a repeat numbered. */
  function anchorsOf(page: string): Set<string> {
    const anchors = new Set<string>();
    const seen = new Map<string, number>();
    let fenced = false;
    for (const { page: linePage, text } of docLines) {
      if (linePage !== page) continue;
      if (text.startsWith('```')) fenced = !fenced;
      const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*$/.exec(text);
      if (!heading) continue;
      const slug = (heading[1] ?? '')
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
        .replace(/ /g, '-');
      const repeat = seen.get(slug) ?? 0;
      seen.set(slug, repeat + 1);
      anchors.add(repeat === 0 ? slug : `${slug}-${repeat}`);
    }
    return anchors;
  }
  const anchors = new Map(pages.map((page) => [page, anchorsOf(page)]));

  it('exist: every link to a section (`page.md#section`, `#section`) lands on a heading of that page', () => {
    const links = docLines.flatMap(({ page, at, text }) =>
      [...text.matchAll(/\]\(([\w./-]*?)#([^)\s]+)\)/g)].flatMap((m) => {
        const target = m[1] ?? '';
        if (target !== '' && !target.endsWith('.md')) return [];
        // Relative to the linking page's folder, as a reader's browser resolves it.
        const resolved = target === '' ? page : new URL(target, new URL(page, 'file:///')).pathname.slice(1);
        return [{ at, link: `${target}#${m[2] ?? ''}`, page: resolved, anchor: m[2] ?? '' }];
      }),
    );
    expect(links.length).toBeGreaterThan(50);
    const broken = links.filter(({ page, anchor }) => !anchors.get(page)?.has(anchor));
    expect(broken.map(({ at, link }) => `${at}: ${link}`)).toEqual([]);
  });
});

describe('docs/rest-api.md', () => {
  it('shows the ready line as the server prints it, at one of this release’s migrations', () => {
    const operations = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
    const example = /`(\{"msg":"ready"[^`]*\})`/.exec(operations)?.[1] ?? '{}';
    const ready = JSON.parse(example) as Record<string, unknown>;
    expect(Object.keys(ready)).toEqual(['msg', 'version', 'revision', 'engine', 'migration', 'address', 'tracing']);
    // Any of them: a new migration does not make the example wrong, only older.
    expect(Object.keys(migrations.sqlite)).toContain(ready.migration);
    expect(ready.version).toBe(appVersion().version);
  });

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
