import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from '../helpers/fixtures.ts';

// What the server knows about a document is one entry (src/graphql/document-entry.ts): a cache of
// its own keyed by a document is refused by `npm run lint`, so a newcomer adds a field instead.

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

async function refusals(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'src/graphql/x.ts' });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
}

describe('one cache entry per document', { timeout: 60_000 }, () => {
  it.for([
    "import type { DocumentNode } from 'graphql';\nexport const seen = new WeakMap<DocumentNode, number>();",
    "import type { OperationDefinitionNode } from 'graphql';\nexport const seen = new Map<OperationDefinitionNode, number>();",
  ])('refuses a map keyed by a document: %s', async (code) => {
    expect(await refusals(code)).toEqual([expect.stringMatching(/a field of its one entry: documentFact\/operationFact/)]);
  });

  it('lets a map be keyed by anything else, a document as its value', async () => {
    expect(await refusals("import type { DocumentNode } from 'graphql';\nexport const byText = new Map<string, DocumentNode>();")).toEqual(
      [],
    );
  });
});
