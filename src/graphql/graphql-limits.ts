/** Abuse limits, checked on every document before anything else reads it (parse-document.ts). docs/graphql.md lists the same numbers. */
export const GRAPHQL_LIMITS = {
  /**
   * A request's body (and a WebSocket message): the document, its variables and extensions. A
   * body is read and parsed as JSON before anything else can look at it, so it is bounded first;
   * the largest input of the schema (a 4,096-character message) fits many times over.
   */
  maxBodyBytes: 65_536,
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
