import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { codedError } from '../coded-error.ts';

/** A document graphql-js cannot parse is GRAPHQL_PARSE_FAILED, coded where parsing fails. */
export function useParseErrorCode<Context extends object>(): Plugin<Context> {
  return {
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError && typeof result.extensions.status !== 'number') {
          replaceParseResult(codedError(result.message, 'GRAPHQL_PARSE_FAILED', 400, { from: result, requestLevel: true }));
        }
      };
    },
  };
}
