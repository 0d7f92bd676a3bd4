import type { CodegenConfig } from '@graphql-codegen/cli';

// The server's SDL is the schema; the operations in src/ become typed documents and a
// trusted-documents manifest (src/__generated__/persisted-documents.json) the server can enforce.
const config: CodegenConfig = {
  schema: '../../schema/*.graphql',
  documents: ['src/**/*.ts', '!src/__generated__/**'],
  generates: {
    'src/__generated__/': {
      preset: 'client',
      presetConfig: {
        persistedDocuments: { hashAlgorithm: 'sha256' },
        fragmentMasking: false,
      },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { SafeInt: 'number', DateTime: 'string' },
      },
    },
  },
};

export default config;
