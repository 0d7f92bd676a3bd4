import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
// Type only: the module itself is loaded on demand, where GraphiQL is on.
import type { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { createSchema, createYoga } from 'graphql-yoga';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { GraphQLContext } from './context.ts';
import { GRAPHIQL_DEFAULT_QUERY } from './graphiql-default-query.ts';
import { GRAPHQL_LIMITS } from './graphql-limits.ts';
import { maskError } from './mask-error.ts';
import { useLogUnexpectedErrors } from './plugins/use-log-unexpected-errors.ts';
import { useMessageQuota } from './plugins/use-message-quota.ts';
import { useRequireKey } from './plugins/use-require-key.ts';
import { useValidationErrorShape } from './plugins/use-validation-error-shape.ts';
import { resolvers } from './resolvers/index.ts';
import { loadTypeDefs } from './type-defs.ts';

type RenderGraphiQL = typeof renderGraphiQL;

/**
 * The self-contained page is ~9 MB (GraphiQL and its editor workers inlined, ~18 MB of
 * strings once loaded): it is imported only where GraphiQL is on, and rendered once.
 */
async function loadGraphiQLRenderer(): Promise<RenderGraphiQL> {
  const { renderGraphiQL: render } = await import('@graphql-yoga/render-graphiql');
  let html: string | undefined;
  return (options) => (html ??= render(options));
}

export interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface GraphQLOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** Throws RATE_LIMITED when the caller's message quota is spent. */
  messageQuota?: (context: ServerContext) => void;
  graphiql?: boolean;
  introspection?: boolean;
  /** Production hides "Did you mean …?" hints, which leak the schema when introspection is off. */
  production?: boolean;
}

export async function createGraphQL({
  db,
  log,
  messageQuota,
  graphiql = true,
  introspection = true,
  production = false,
}: GraphQLOptions): Promise<YogaServerInstance<ServerContext, GraphQLContext>> {
  type Context = GraphQLContext & ServerContext;
  const plugins: Plugin<Context>[] = [
    EnvelopArmorPlugin({
      maxDepth: { n: GRAPHQL_LIMITS.maxDepth },
      maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
      maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
      maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
      costLimit: { maxCost: GRAPHQL_LIMITS.maxCost },
      blockFieldSuggestion: { enabled: production },
    }) as Plugin<Context>,
    useValidationErrorShape<Context>(),
    useRequireKey<Context>(),
    useLogUnexpectedErrors<Context>(),
  ];
  if (!introspection) plugins.push(useDisableIntrospection() as Plugin<Context>);
  if (messageQuota) plugins.push(useMessageQuota<Context>(messageQuota));

  return createYoga<ServerContext, GraphQLContext>({
    schema: createSchema<Context>({ typeDefs: loadTypeDefs(), resolvers: resolvers as never }),
    graphqlEndpoint: '/graphql',
    // The key was checked by the route's onRequest hooks, with REST's code.
    context: ({ req }) => ({ db, principal: req.principal, requestId: req.id, log: req.log }),
    maskedErrors: { maskError },
    batching: false,
    landingPage: false,
    graphiql: graphiql ? { title: 'Petstore Gateway GraphiQL', defaultQuery: GRAPHIQL_DEFAULT_QUERY } : false,
    // The self-contained GraphiQL: no CDN, so it works offline and behind strict networks.
    ...(graphiql ? { renderGraphiQL: await loadGraphiQLRenderer() } : {}),
    logging: {
      debug: (...args) => log.debug(args.length === 1 ? args[0] : args),
      info: (...args) => log.info(args.length === 1 ? args[0] : args),
      warn: (...args) => log.warn(args.length === 1 ? args[0] : args),
      error: (...args) => log.error(args.length === 1 ? args[0] : args),
    },
    plugins,
  });
}
