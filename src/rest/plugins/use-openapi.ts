import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/load-config.ts';
import { TRY_IT_OUT_SCRIPT } from './swagger-try-it-out.ts';

// @fastify/swagger copies these into the operation but does not declare them.
declare module 'fastify' {
  interface FastifySchema {
    /** Operation-level servers, for routes on another base address. */
    servers?: ReadonlyArray<{ url: string; description?: string }>;
    /** Contract §4.5: some endpoints carry an experimental or beta marking. */
    'x-stability'?: 'experimental' | 'beta';
    /** false: the docs page shows no "Try it out" for this operation (contract §4.5, store orders). */
    'x-try-it-out'?: false;
  }
}

/**
 * The OpenAPI document is generated from the same route schemas that validate requests,
 * so the docs cannot promise what the server does not do.
 */
export async function useOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Petstore Gateway',
        version: '1.0.0',
        description:
          'The pet store REST contract (v1) and the message quickstart. Every operation needs `Authorization: Bearer <API_KEY>`; errors use the Error body `{code, message, status}`.',
      },
      // Only addresses that exist: a placeholder would send the docs page's requests nowhere.
      servers: [
        { url: '/v1', description: 'This server' },
        ...(config.productionBaseUrl ? [{ url: config.productionBaseUrl, description: 'Production' }] : []),
        ...(config.stagingBaseUrl ? [{ url: config.stagingBaseUrl, description: 'Staging' }] : []),
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key, as `Authorization: Bearer psk_…`.' },
        },
      },
      tags: [
        { name: 'pets', description: 'The catalogue of animals.' },
        { name: 'store', description: 'Store orders (experimental).' },
        { name: 'messages', description: 'The message quickstart, on its own base address.' },
        { name: 'keys', description: 'Your own API keys: create, list, revoke.' },
        { name: 'accounts', description: 'Sign-up, where the server allows it (SIGNUP=open).' },
      ],
    },
    // Keep shared schemas under their own names (#/components/schemas/Error), not def-0.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });

  // Assets are served from the package itself: the docs work with no internet access.
  await app.register(swaggerUi, {
    routePrefix: '/v1/docs',
    uiConfig: { persistAuthorization: true },
    theme: { js: [{ filename: 'try-it-out.js', content: TRY_IT_OUT_SCRIPT }] },
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
