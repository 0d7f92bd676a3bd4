import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Yoga answers validation errors without its masking step; send them through the same boundary. */
export function useValidationErrorShape<Context extends object>(maskError: (error: unknown) => Error): Plugin<Context> {
  return {
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length > 0) setResult(result.map((error) => maskError(error) as GraphQLError));
      };
    },
  };
}
