import type { Scope } from '../../services/access-tokens/scopes.ts';

/**
 * A root field's resolver with the scope it needs, where that is not its root type's (reading
 * for queries and subscriptions, writing for mutations): the keys' fields need petstore:keys.
 * It reaches the schema as the field's `extensions.scope`, where src/graphql/scopes.ts finds it.
 */
export function needing<R>(scope: Scope, resolver: R): R {
  const config = (typeof resolver === 'function' ? { resolve: resolver } : resolver) as { extensions?: object };
  return { ...config, extensions: { ...config.extensions, scope } } as R;
}
