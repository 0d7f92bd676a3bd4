import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/load-config.ts';
import type { Database } from '../db/types.ts';
import type { KeyVerifier } from '../services/api-keys/index.ts';
import { idempotencyHooks } from '../http/idempotency/idempotency-hooks.ts';
import type { RateLimitChecks } from '../http/limits/rate-limit-checks.ts';
import { useConditionalGet } from '../http/caching/use-conditional-get.ts';
import type { KeptAnswers } from '../http/caching/use-conditional-get.ts';
import { buildSalt } from '../config/version.ts';
import { strictAjv } from '../services/validation/validator.ts';
import { compileParamValidator } from './param-validator.ts';
import { useOpenApi } from './plugins/use-openapi.ts';
import { healthRoutes } from './routes/health.ts';
import { indexRoute } from './routes/index-route.ts';
import { keysRoutes } from './routes/keys.ts';
import { messagesRoutes } from './routes/messages.ts';
import { petsRoutes } from './routes/pets.ts';
import { protectedResourceRoutes } from './routes/protected-resource.ts';
import { signupRoutes } from './routes/signup.ts';
import { storeOrdersRoutes } from './routes/store-orders.ts';
import { NAMED_SCHEMAS, SIGNUP_SCHEMAS } from './schemas.ts';

export interface RestOptions {
  db: Kysely<Database>;
  /** The edge's key verifier: told of a key a request's versions read finds no longer working. */
  verifier: KeyVerifier;
  config: Config;
  limits: RateLimitChecks;
  /** Readiness: a statement runs as requests run theirs (the database's probe). */
  probe: () => Promise<void>;
  /** The response cache, for the lists' answers: null when it is off. */
  kept: KeptAnswers | null;
}

/** The REST face: /v1 (contract), /messages (the quickstart), health probes, the OpenAPI document and docs page, and the root's index of every face. */
export async function mountRest(app: FastifyInstance, { db, verifier, config, limits, probe, kept }: RestOptions): Promise<void> {
  // Query strings and path ids are checked as text first (param-validator.ts); bodies by the services' strict ajv.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? strictAjv.compile(schema) : compileParamValidator(schema as Parameters<typeof compileParamValidator>[0]),
  );
  for (const [name, schema] of Object.entries({ ...NAMED_SCHEMAS, ...(config.signup ? SIGNUP_SCHEMAS : {}) })) {
    app.addSchema({ $id: name, ...schema });
    // Bodies are validated by our own ajv, which resolves a route's `$ref` itself.
    if (!strictAjv.getSchema(name)) strictAjv.addSchema({ $id: name, ...schema });
  }
  // Each list route's page, read once by the route (decided-listing.ts).
  app.decorateRequest('listing', null);
  await useOpenApi(app, config);
  await app.register(healthRoutes, { probe });
  await app.register(indexRoute, { graphiql: config.graphiql, mcp: config.mcp });

  const idempotent = idempotencyHooks(db);
  const linkBase = config.publicBaseUrl ?? '/v1';
  await app.register(async (keyed) => {
    // The edge's one pass checks the credential and its scope on these routes (edge-pass.ts).
    keyed.addHook('onRoute', (route) => {
      route.config = { ...route.config, keyed: true };
    });
    useConditionalGet(keyed, { db, verifier, salt: `${buildSalt()}|${linkBase}`, kept });
    await keyed.register(petsRoutes, { prefix: '/v1', db, linkBase, idempotent });
    await keyed.register(storeOrdersRoutes, { prefix: '/v1', db, linkBase, idempotent });
    await keyed.register(keysRoutes, { prefix: '/v1', db });
    await keyed.register(messagesRoutes, { db, idempotent, messageQuota: async (request, reply) => limits.message(request, reply) });
  });
  if (config.oidc) await app.register(protectedResourceRoutes, { oidc: config.oidc });
  if (config.signup) await app.register(signupRoutes, { db, signupQuota: async (request, reply) => limits.signup(request, reply) });
}
