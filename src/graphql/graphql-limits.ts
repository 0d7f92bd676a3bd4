/** Abuse limits, checked before execution (graphql-armor). docs/graphql.md lists the same numbers. */
export const GRAPHQL_LIMITS = {
  maxDepth: 8,
  maxAliases: 15,
  maxTokens: 1000,
  maxDirectives: 10,
} as const;
