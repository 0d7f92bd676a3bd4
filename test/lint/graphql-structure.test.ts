import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from '../helpers/fixtures.ts';

// The GraphQL face's structure as lint rules, so a newcomer is stopped by `npm run lint`: what the
// server knows about a document is one entry (src/graphql/document-entry.ts), so a cache of its
// own keyed by a document is refused; no second pipeline is built from Yoga's (createYoga, envelop);
// a request is read once, into its one record (src/graphql/http/operation-request.ts).

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

/** The import restrictions eslint gives `code` as if it were the file `path`. */
async function restricted(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

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

describe('one pipeline: no second one built from Yoga', { timeout: 60_000 }, () => {
  it.for([
    ['src/graphql/x.ts', "import { createYoga } from 'graphql-yoga';\nexport const x = createYoga;"],
    ['src/mcp/x.ts', "import { envelop } from 'graphql-yoga';\nexport const x = envelop;"],
  ])('refuses %s building one', async ([path, code]) => {
    expect(await restricted(path ?? '', code ?? '')).toEqual([expect.stringMatching(/runs through the one pipeline/)]);
  });

  it('lets a transport take Yoga’s result helpers', async () => {
    const code = "import { getSSEProcessor } from 'graphql-yoga';\nexport const x = getSSEProcessor;";
    expect(await restricted('src/graphql/http/x.ts', code)).toEqual([]);
  });
});

describe('one record per request: what it asks GraphQL for is resolved once', { timeout: 60_000 }, () => {
  it.for([
    ['src/graphql/x.ts', "import { readParams } from './http/graphql-params.ts';\nexport const x = readParams;"],
    ['src/graphql/http/x.ts', "import { documentText } from '../trusted-documents.ts';\nexport const x = documentText;"],
  ])('refuses %s reading the request again', async ([path, code]) => {
    expect(await restricted(path ?? '', code ?? '')).toEqual([expect.stringMatching(/resolved once, into its one record/)]);
  });

  it('lets a guarantee read the record, and the parameters’ type', async () => {
    const code = [
      "import { operationRequests } from './operation-request.ts';",
      "import type { RequestParams } from './graphql-params.ts';",
      'export const x = operationRequests;',
      'export type P = RequestParams;',
    ].join('\n');
    expect(await restricted('src/graphql/http/x.ts', code)).toEqual([]);
  });
});
