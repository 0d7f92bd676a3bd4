import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Introspection off as a validation rule, so it holds for every way a document reaches
 * execution. (@graphql-yoga/plugin-disable-introspection decides in onRequestParse, a hook of
 * Yoga's HTTP handling, which queries do not go through here.)
 */
export function useNoIntrospection<Context extends object>(): Plugin<Context> {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}
