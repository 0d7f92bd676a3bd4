import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { codedError } from '../coded-error.ts';
import { GRAPHQL_LIMITS } from '../graphql-limits.ts';

/**
 * Where graphql-armor refuses an operation, the refusal is raised as QUERY_TOO_COMPLEX (400)
 * in place of armor's own error, whose message starts "Syntax Error:" for every limit.
 */
function tooComplex(_context: unknown, rejected: GraphQLError): never {
  throw codedError(rejected.message.replace(/^Syntax Error: /, ''), 'QUERY_TOO_COMPLEX', 400, { requestLevel: true });
}

/** The abuse limits (graphql-limits.ts), checked while parsing and validating, before anything runs. */
export function useLimits<Context extends object>(): Plugin<Context> {
  const onReject = [tooComplex];
  return EnvelopArmorPlugin({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, onReject },
    // __typename aliases count too: armor allows them by default, so 16 of them passed the limit.
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases, allowList: [], onReject },
    maxTokens: { n: GRAPHQL_LIMITS.maxTokens, onReject },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives, onReject },
    // Armor's cost knows neither page sizes nor which fields read the database: use-query-cost.ts does.
    costLimit: { enabled: false },
    // Suggestions are removed from every kind of error in production (mask-error.ts).
    blockFieldSuggestion: { enabled: false },
  }) as Plugin<Context>;
}
