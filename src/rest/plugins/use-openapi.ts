import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/index.ts';
import type { Config } from '../../config/load-config.ts';
import { appVersion } from '../../config/version.ts';
import { describeWire } from './describe-wire.ts';
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

export const OPENAPI_PATH = '/v1/openapi.json';
/** The interface description's version (the contract, §9), apart from the server release's. */
const INTERFACE_VERSION = '1.0.0';
export const DOCS_PREFIX = '/v1/docs';
/** Where the REST face answers large: the OpenAPI document and the docs page with its assets. */
export const LARGE_REST_ANSWERS = [OPENAPI_PATH, DOCS_PREFIX] as const;
const DOCS_ASSETS = `${DOCS_PREFIX}/static/`;
const DOCS_ASSETS_CACHE_CONTROL = 'public, max-age=86400';

const DOCS_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" viewBox="0 0 220 40">' +
  '<text x="0" y="28" font-family="sans-serif" font-size="22" font-weight="bold" fill="#ffffff">Petstore Gateway</text></svg>';

/**
 * The document has one address. Swagger UI's plugin also serves it at /v1/docs/json and /yaml:
 * the first sends clients to the one address (308), the second is as absent as any unknown path.
 */
function oneDocumentAddress(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  const path = request.url.split('?')[0] ?? '';
  if (path === '/v1/docs/json') return void reply.redirect(OPENAPI_PATH, 308);
  if (path === '/v1/docs/yaml')
    return done(AppError.of('NOT_FOUND', 'noDocsRoute', { method: request.method, path, openapi: OPENAPI_PATH }));
  done();
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
        // The contract's (§9): the interface's version, which the docs page's badge shows; the release serving it is named below.
        version: INTERFACE_VERSION,
        description:
          'The pet store REST contract (v1) and the message quickstart. Every operation needs `Authorization: Bearer <API_KEY>`; errors use the Error body `{code, message, status}`. ' +
          `Version ${INTERFACE_VERSION} is this interface's; it is served by Petstore Gateway ${appVersion().version} (revision ${appVersion().revision}).`,
      },
      // Only addresses that exist: a placeholder would send the docs page's requests nowhere.
      servers: [
        { url: '/v1', description: 'This server: the environment (local, staging or production) that served this document' },
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
        // Only where it has an operation: an empty group on the docs page says nothing.
        ...(config.signup ? [{ name: 'accounts', description: 'Sign-up: create an account and its first key.' }] : []),
      ],
    },
    // The headers and edge answers of every operation, besides what its route declares.
    transformObject: (document) => describeWire((document as { openapiObject: Parameters<typeof describeWire>[0] }).openapiObject),
    // Keep shared schemas under their own names (#/components/schemas/Error), not def-0.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });

  // Assets are served from the package itself: the docs work with no internet access. The page
  // reads the document from its one address, /v1/openapi.json, named in the top bar with our logo.
  // The page's scripts and styles change only with a release of the docs package: a browser keeps
  // them a day before it asks again (with If-None-Match / If-Modified-Since, answered 304). The
  // hook lives in the docs page's own context, so no other route runs it.
  await app.register(async (docs) => {
    // Its scripts and styles are static: not counted against any budget (route-facts.ts, asset).
    docs.addHook('onRoute', (route) => {
      if (route.url === `${DOCS_PREFIX}/*` || route.url.startsWith(DOCS_ASSETS)) route.config = { ...route.config, asset: true };
    });
    docs.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode === 200 && request.url.startsWith(DOCS_ASSETS)) reply.header('Cache-Control', DOCS_ASSETS_CACHE_CONTROL);
      return payload;
    });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: { persistAuthorization: true, urls: [{ url: OPENAPI_PATH, name: `Petstore Gateway: ${OPENAPI_PATH}` }] },
      logo: { type: 'image/svg+xml', content: DOCS_LOGO, href: '/v1/docs/' },
      theme: { js: [{ filename: 'try-it-out.js', content: TRY_IT_OUT_SCRIPT }] },
      uiHooks: { onRequest: oneDocumentAddress },
    });
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
