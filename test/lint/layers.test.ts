import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
// @ts-expect-error -- eslint's config is plain JavaScript, without types: LAYERS is read as the rule reads it.
import { LAYERS } from '../../eslint.config.js';
import { describe, expect, it } from '../helpers/fixtures.ts';

// The layering of src/ is a lint rule (eslint.config.js, LAYERS), so a newcomer who imports
// upwards or across faces is stopped by `npm run lint`, not by a reviewer: here, what it refuses.

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

/** The layering messages eslint gives `code` as if it were the file `path` under the repository. */
async function layering(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'layers/imports').map((message) => message.message);
}

describe('the layers of src/', { timeout: 60_000 }, () => {
  it.for([
    [
      'src/services/pets/x.ts',
      "import { mountRest } from '../../rest/mount-rest.ts';\nexport const x = mountRest;",
      /src\/services may not import from src\/rest/,
    ],
    [
      'src/db/x.ts',
      "import { getPet } from '../services/pets/index.ts';\nexport const x = getPet;",
      /src\/db may not import from src\/services/,
    ],
    [
      'src/rest/x.ts',
      "import { mountGraphQL } from '../graphql/mount-graphql.ts';\nexport const x = mountGraphQL;",
      /src\/rest may not import from src\/graphql/,
    ],
    [
      'src/graphql/x.ts',
      "import { inTransaction } from '../db/in-transaction.ts';\nexport const x = inTransaction;",
      /src\/graphql may not import from src\/db \(its types only\)/,
    ],
    [
      'src/http/x.ts',
      "import { mountRest } from '../rest/mount-rest.ts';\nexport const x = mountRest;",
      /src\/http may not import from src\/rest/,
    ],
  ] as const)('refuses %s importing upwards or across', async ([path, code, expected]) => {
    expect(await layering(path, code)).toEqual([expect.stringMatching(expected)]);
  });

  it('refuses a service building its own statement once: that is a named query under src/db/queries', async () => {
    const [result] = await eslint.lintText("import { preparedQuery } from '../../db/prepared-query.ts';\nexport const x = preparedQuery;", {
      filePath: 'src/services/pets/x.ts',
    });
    expect(result?.messages.map((message) => [message.ruleId, message.message])).toEqual([
      ['no-restricted-imports', expect.stringMatching(/named query under src\/db\/queries/)],
    ]);
    const [query] = await eslint.lintText("import { petById } from '../../db/queries/pet-by-id.ts';\nexport const x = petById;", {
      filePath: 'src/services/pets/x.ts',
    });
    expect(query?.messages).toEqual([]);
  });

  it('is a house without cycles: no layer reaches itself through the ones it may import, telemetry at the bottom', () => {
    const layers = LAYERS as Record<string, string[]>;
    const below = (layer: string) => (layers[layer] ?? []).map((to) => to.replace(/:type$/, '')).filter((to) => to !== '(top)');
    const cycles: string[] = [];
    const walk = (layer: string, path: string[]) => {
      for (const next of below(layer)) {
        if (path.includes(next)) cycles.push([...path, next].join(' → '));
        else walk(next, [...path, next]);
      }
    };
    for (const layer of Object.keys(layers)) walk(layer, [layer]);
    expect(cycles).toEqual([]);
    // Every layer that records may reach telemetry; telemetry itself reaches none of them.
    expect(below('telemetry')).toEqual(['config', 'db', 'errors', 'util']);
    for (const layer of ['services', 'http', 'rest', 'graphql', 'mcp', 'delivery']) expect(below(layer)).toContain('telemetry');
  });

  it('lets a face import the database’s types, and a service the database', async () => {
    expect(await layering('src/graphql/x.ts', "import type { Database } from '../db/types.ts';\nexport type X = Database;")).toEqual([]);
    expect(
      await layering('src/services/x.ts', "import { inTransaction } from '../db/in-transaction.ts';\nexport const x = inTransaction;"),
    ).toEqual([]);
  });
});
