import { serverAudits } from 'graphql-http';
import type { AuditResult } from 'graphql-http';
import { describe, expect, it } from '../helpers/fixtures.ts';

/**
 * graphql-http's audits of the GraphQL over HTTP specification, MUST, SHOULD and MAY alike, run
 * against the server on a socket: every one passes (they send `{ __typename }`, open without a key;
 * about 70 requests, more than a minute's keyless budget, which each app here raises).
 */
describe('GraphQL over HTTP: the specification audits', () => {
  it.for([
    ['as it starts by default', {}],
    ['as a federation subgraph', { GRAPHQL_FEDERATION: 'true' }],
  ] as const)('passes every graphql-http audit, %s (@defer and @stream always on)', async ([, env], { makeApp }) => {
    const t = await makeApp({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '1000', ...env });
    const origin = await t.listen();
    const results: AuditResult[] = [];
    for (const audit of serverAudits({ url: `${origin}/graphql` })) results.push(await audit.fn());
    expect(results.filter((result) => result.status !== 'ok').map((result) => `${result.name}: ${result.reason}`)).toEqual([]);
    expect(results.length).toBeGreaterThan(40);
  });
});
