import { serverAudits } from 'graphql-http';
import type { AuditResult } from 'graphql-http';
import { describe, expect, it } from '../helpers/fixtures.ts';

// The audits send about 70 requests without a key, more than a minute's keyless budget.
it.override('appEnv', { UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '1000' });

/**
 * graphql-http's audits of the GraphQL over HTTP specification, MUST, SHOULD and MAY alike, run
 * against the server on a socket: every one passes (they send `{ __typename }`, open without a key).
 */
describe('GraphQL over HTTP: the specification audits', () => {
  it('passes every graphql-http audit', async ({ t }) => {
    const origin = await t.listen();
    const results: AuditResult[] = [];
    for (const audit of serverAudits({ url: `${origin}/graphql` })) results.push(await audit.fn());
    expect(results.filter((result) => result.status !== 'ok').map((result) => `${result.name}: ${result.reason}`)).toEqual([]);
    expect(results.length).toBeGreaterThan(40);
  });
});
