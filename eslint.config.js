import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

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
