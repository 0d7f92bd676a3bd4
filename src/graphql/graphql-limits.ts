/** Abuse limits, checked on every document before anything else reads it (parse-document.ts). docs/graphql.md lists the same numbers. */
export const GRAPHQL_LIMITS = {
  /** The document's text in UTF-8 bytes, comments and whitespace included: what parsing it and keeping it cost. */
  maxBytes: 16_384,
  /** Tokens, as graphql-js counts them while parsing (comments are not tokens: maxBytes bounds those). */
  maxTokens: 1000,
  /** Levels of nesting: each field with a selection, inline fragment and fragment spread is one (introspection's own aside). */
  maxDepth: 8,
  /** Aliases in an operation, counted through every fragment spread. */
  maxAliases: 15,
  /** Directives in an operation, counted through every fragment spread. */
  maxDirectives: 10,
} as const;
