import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.ts';

export interface GraphQLResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string; status?: number } }[];
}

/** POSTs a GraphQL operation the way a front end does; `headers` replaces the default key. */
export async function graphql(
  t: TestApp,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = t.auth,
): Promise<{ res: LightMyRequestResponse; body: GraphQLResponse }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
    payload: { query, ...(variables ? { variables } : {}) },
  });
  return { res, body: JSON.parse(res.body) as GraphQLResponse };
}
