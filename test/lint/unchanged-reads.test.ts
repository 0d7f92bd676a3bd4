import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from '../helpers/fixtures.ts';

// A read answered from memory while nothing was committed (src/db/unchanged-reads.ts) must be a
// function of the database alone; a newcomer who wraps a read with a clock in it, or wraps one
// outside src/db/queries, is stopped by `npm run lint` (eslint.config.js, `reads`).

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

async function refusals(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'reads/while-unchanged').map((message) => message.message);
}

const query = (body: string) =>
  [
    "import type { Kysely } from 'kysely';",
    "import { preparedQuery } from '../prepared-query.ts';",
    "import { whileUnchanged } from '../unchanged-reads.ts';",
    "import type { Database } from '../types.ts';",
    '',
    '// Comments may say now or Date: only code is read.',
    `export const petsNamed = whileUnchanged(preparedQuery((db: Kysely<Database>, name: string) => ${body}));`,
  ].join('\n');

describe('reads kept while the database is unchanged', { timeout: 60_000 }, () => {
  it('lets a named query read rows that depend on the database and its arguments', async () => {
    expect(await refusals('src/db/queries/x.ts', query("db.selectFrom('pets').selectAll().where('name', '=', name)"))).toEqual([]);
  });

  it.for([
    ['a clock', "db.selectFrom('pets').selectAll().where('created_at', '<', new Date().toISOString())", 'Date'],
    ['the engine’s clock', "db.selectFrom('pets').select(sql`current_timestamp`.as('t')).where('name', '=', name)", 'current_timestamp'],
    ['randomness', "db.selectFrom('pets').selectAll().where('name', '=', randomUUID())", 'randomUUID'],
    ['a caller’s transaction', "(trx ?? db).selectFrom('pets').selectAll().where('name', '=', name)", 'trx'],
  ])('refuses a read with %s in it', async ([, body, word]) => {
    expect(await refusals('src/db/queries/x.ts', query(body ?? ''))).toEqual([expect.stringContaining(`this file names '${word}'`)]);
  });

  it.for(['src/db/x.ts', 'src/services/pets/x.ts'])('refuses wrapping a read outside src/db/queries: %s', async (path) => {
    const code = "import { whileUnchanged } from '../unchanged-reads.ts';\nexport const x = whileUnchanged;";
    expect(await refusals(path, code)).toEqual([expect.stringMatching(/is a named query under src\/db\/queries/)]);
  });

  it('lets the opener register the stamp from anywhere in src/db', async () => {
    const code = "import { allowUnchangedReads } from './unchanged-reads.ts';\nexport const x = allowUnchangedReads;";
    expect(await refusals('src/db/x.ts', code)).toEqual([]);
  });
});
