import { dirname, relative, resolve } from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/ and what each may import (docs/architecture.md, "The rules between
 * layers"): db ← services ← http ← rest, graphql; telemetry observes; config, errors and util
 * stand alone. `db:type` is the database's types only: no SQL in the edge or the faces. Files at
 * src/'s top (app.ts, server.ts) put it all together and may import anything.
 */
export const LAYERS = {
  config: [],
  errors: [],
  util: [],
  db: ['config', 'errors', 'util'],
  // At the bottom of the house: metrics and spans, which every layer above records into (spans.ts is tracing's one module).
  telemetry: ['config', 'db:type', 'errors', 'util'],
  services: ['db', 'errors', 'util', 'config', 'telemetry'],
  http: ['config', 'db:type', 'errors', 'services', 'telemetry', 'util'],
  rest: ['config', 'db:type', 'errors', 'http', 'services', 'telemetry', 'util'],
  graphql: ['config', 'db:type', 'errors', 'http', 'services', 'telemetry', 'util'],
  mcp: ['config', 'db:type', 'errors', 'http', 'services', 'telemetry', 'util'],
  delivery: ['config', 'db', 'errors', 'services', 'telemetry', 'util'],
  cli: ['config', 'db', 'errors', 'services', 'util', '(top)'],
};

/** The layer of a path under src/, '(top)' for a file at its top, or null outside src/. */
function layerOf(root, path) {
  const inside = relative(resolve(root, 'src'), path);
  if (inside.startsWith('..')) return null;
  return inside.includes('/') ? inside.split('/')[0] : '(top)';
}

const layers = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const from = layerOf(context.cwd, context.filename);
        if (!from || from === '(top)') return {};
        const allowed = LAYERS[from] ?? [];
        const check = (node, source, typeOnly) => {
          if (typeof source !== 'string' || !source.startsWith('.')) return;
          const to = layerOf(context.cwd, resolve(dirname(context.filename), source));
          if (!to || to === from) return;
          if (allowed.includes(to) || (typeOnly && allowed.includes(`${to}:type`))) return;
          context.report({
            node,
            message: `src/${from} may not import from src/${to}${allowed.includes(`${to}:type`) ? ' (its types only)' : ''}: ${from} may use ${allowed.join(', ') || 'nothing outside itself'} (docs/architecture.md).`,
          });
        };
        const typeOnly = (node) =>
          node.importKind === 'type' ||
          node.exportKind === 'type' ||
          (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
        return {
          ImportDeclaration: (node) => check(node, node.source.value, typeOnly(node)),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, typeOnly(node)),
          ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
          ImportExpression: (node) => check(node, node.source.value, false),
        };
      },
    },
  },
};

/**
 * A read kept while the database is unchanged (src/db/unchanged-reads.ts) answers again what it
 * answered, so its rows must be a function of the database alone: it is a named query under
 * src/db/queries, and its file's code (comments aside) names no clock, no randomness and no
 * caller's transaction. Only that file is read, not the helpers it imports (version-columns.ts).
 */
const CLOCK_OR_CALLER =
  /\b(Date|now|performance|current_(?:timestamp|date|time)|localtime(?:stamp)?|random(?:UUID|Bytes|Int)?|transaction|trx)\b/i;

const reads = {
  rules: {
    'while-unchanged': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const inQueries = !relative(resolve(context.cwd, 'src/db/queries'), context.filename).startsWith('..');
        return {
          ImportDeclaration(node) {
            if (inQueries || typeof node.source.value !== 'string' || !node.source.value.endsWith('/unchanged-reads.ts')) return;
            for (const specifier of node.specifiers) {
              if (specifier.type === 'ImportSpecifier' && specifier.imported.name === 'whileUnchanged') {
                context.report({
                  node: specifier,
                  message:
                    'A read kept while the database is unchanged is a named query under src/db/queries (docs/architecture.md): write it there and import that.',
                });
              }
            }
          },
          'CallExpression[callee.name="whileUnchanged"]'(node) {
            const code = context.sourceCode.ast.tokens.map((token) => token.value).join(' ');
            const found = CLOCK_OR_CALLER.exec(code);
            if (found) {
              context.report({
                node,
                message: `A read kept while the database is unchanged answers again what it answered: its rows may depend on the database and its arguments alone, and this file names '${found[1]}' (docs/architecture.md).`,
              });
            }
          },
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/__generated__/', 'data/', 'scratch/', '**/dist/', 'test-artifacts/', 'build/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  // Formatting is Prettier's; eslint checks everything else.
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        Buffer: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // An underscore marks a parameter or table column a callback receives but does not need.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use a union type or an `as const` object, not enum.' }],
    },
  },
  // The layers import only downwards (LAYERS above).
  { files: ['src/**/*.ts'], plugins: { layers }, rules: { 'layers/imports': 'error' } },
  // A read answered from memory while nothing was committed is pure (`reads` above).
  { files: ['src/**/*.ts'], plugins: { reads }, rules: { 'reads/while-unchanged': 'error' } },
  // A statement built once is a named query of src/db/queries, which services call: the speed
  // lives at the database's seam, and a service never holds a query frozen at build time.
  // (The faces cannot import src/db at all: the layers rule refuses it first.)
  {
    files: ['src/**/*.ts'],
    ignores: ['src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // One pipeline: every GraphQL operation, whatever carries it, runs through
          // src/graphql/http/run-graphql.ts; a transport only frames what it answers.
          paths: [
            {
              name: 'graphql-yoga',
              importNames: ['createYoga', 'envelop', 'useEnvelop', 'makeExecute', 'makeSubscribe'],
              message:
                'Every GraphQL operation runs through the one pipeline (src/graphql/http/run-graphql.ts, docs/architecture.md): from graphql-yoga take only its result helpers.',
            },
          ],
          patterns: [
            {
              group: ['**/db/prepared-query.ts'],
              message: 'A statement built once is a named query under src/db/queries (docs/architecture.md): import that instead.',
            },
            {
              // One record per request: what a request asks GraphQL for is resolved once, and every guarantee reads that.
              group: ['**/graphql-params.ts', '**/trusted-documents.ts'],
              importNames: ['readParams', 'documentText'],
              message:
                'A GraphQL request is resolved once, into its one record (src/graphql/http/operation-request.ts): read the record, not the request.',
            },
          ],
        },
      ],
    },
  },
  // Every word a client is told comes from the error catalogue (src/errors/catalogue.ts).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/errors/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a union type or an `as const` object, not enum.' },
        {
          selector: "NewExpression[callee.name='AppError'][arguments.length>2]",
          message: "Name the catalogue's message: AppError.of(code, name, params).",
        },
        {
          selector:
            "CallExpression[callee.object.name='AppError'][callee.property.name='worded'][arguments.1.type=/^(Literal|TemplateLiteral|BinaryExpression)$/]",
          message: 'Words written here belong in the error catalogue (src/errors/catalogue.ts): AppError.of(code, name, params).',
        },
        {
          selector: "CallExpression[callee.name='codedError'][arguments.0.type=/^(Literal|TemplateLiteral|BinaryExpression)$/]",
          message: 'Words written here belong in the error catalogue (src/errors/catalogue.ts).',
        },
        {
          // One cache entry per document (src/graphql/document-entry.ts), as Mercurius keeps one per query.
          selector:
            'NewExpression[callee.name=/^(WeakMap|Map)$/] > TSTypeParameterInstantiation > TSTypeReference:first-child[typeName.name=/^(DocumentNode|OperationDefinitionNode)$/]',
          message:
            'What is known about a document is a field of its one entry: documentFact/operationFact (src/graphql/document-entry.ts).',
        },
      ],
    },
  },
  // The in-process tier shares each worker's modules between files (isolate: false in
  // vitest.config.ts): a test may not replace a module, a global or the environment.
  {
    files: ['test/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubGlobal', 'stubEnv', 'useFakeTimers'].map((property) => ({
          object: 'vi',
          property,
          message: 'Test files share modules (vitest.config.ts: isolate: false); test through the app instead.',
        })),
      ],
    },
  },
  // The example front end runs in a browser.
  {
    files: ['examples/web/src/**/*.ts'],
    languageOptions: {
      globals: {
        document: 'readonly',
        localStorage: 'readonly',
        fetch: 'readonly',
        HTMLElement: 'readonly',
        HTMLInputElement: 'readonly',
        HTMLSelectElement: 'readonly',
        HTMLButtonElement: 'readonly',
        HTMLLIElement: 'readonly',
        TextDecoderStream: 'readonly',
        AbortSignal: 'readonly',
        RequestInit: 'readonly',
      },
    },
  },
);
