import type { CodegenConfig } from '@graphql-codegen/cli';

// schema/*.graphql is the source of truth; this writes the resolver types the code is checked against.
const config: CodegenConfig = {
  schema: 'schema/*.graphql',
  generates: {
    'src/graphql/__generated__/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        useIndexSignature: false,
        mapperTypeSuffix: 'Model',
        contextType: '../context.ts#GraphQLContext',
        mappers: {
          Pet: '../../services/pets/index.ts#Pet',
          PetConnection: '../../services/pets/index.ts#PetPage',
          Message: '../../services/messages/index.ts#Message',
          Order: '../../services/orders/index.ts#Order',
          OrderConnection: '../../services/orders/index.ts#OrderPage',
          CancelOrderPayload: '../../services/orders/index.ts#Order',
          PageInfo: '../resolvers/connection.ts#PageInfo',
          ApiKey: '../../services/api-keys/index.ts#ApiKey',
          NewApiKeyWithSecret: '../../services/api-keys/index.ts#NewApiKeyWithSecret',
        },
        scalars: {
          SafeInt: 'number',
          DateTime: 'string',
        },
      },
    },
  },
};

export default config;
