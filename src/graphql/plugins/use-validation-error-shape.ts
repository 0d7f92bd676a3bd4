import type { Plugin } from 'graphql-yoga';
import { codedError } from '../coded-error.ts';
import { requestErrorWords } from '../mask-error.ts';

/**
 * graphql-js's validation errors (unknown fields, wrong argument types …) get their code here,
 * where they are produced; Yoga does not send them through its masking step.
 */
export function useValidationErrorShape<Context extends object>({ production }: { production: boolean }): Plugin<Context> {
  return {
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length === 0) return;
        setResult(
          result.map((error) =>
            typeof error.extensions.status === 'number'
              ? error
              : codedError(requestErrorWords(error.message, production), 'VALIDATION_FAILED', 400, { from: error, requestLevel: true }),
          ),
        );
      };
    },
  };
}
