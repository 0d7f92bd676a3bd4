import { promiseHooks } from 'node:v8';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { callTool } from '../helpers/mcp.ts';
import type { TestApp } from '../helpers/test-app.ts';

const LIST = '{ pets(first: 20) { nodes { id name categoryId status } } }';

/**
 * The promises one warm request makes, from its send to its answer, `app.inject`'s own included:
 * the least of three, so a timer of the app's own that fires during one (a cache's refresh) is
 * not counted against the request.
 */
async function promisesOf(send: () => Promise<unknown>): Promise<number> {
  // Warm: the document's entry, the statements prepared, the key's cache.
  await send();
  await send();
  let least = Infinity;
  for (let i = 0; i < 3; i++) {
    let made = 0;
    const stop = promiseHooks.onInit(() => void made++);
    try {
      await send();
    } finally {
      stop();
    }
    least = Math.min(least, made);
  }
  return least;
}

/**
 * Each promise is an object, a microtask and, awaited, a suspended frame, on every request: a
 * cost the on-CPU profile spreads too thin to see, which an async layer that waits for nothing
 * adds silently (docs/performance.md, "Promises a request"). Counted here over `app.inject`
 * (which makes some of its own, the same for every row) on SQLite, where a statement answers at
 * once; on PostgreSQL every statement is a round trip and its driver's promises are its own.
 * A change that needs more raises its row with the reason in its commit.
 */
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('promises a request', () => {
  const budgets: [string, number, (t: TestApp) => Promise<unknown>][] = [
    ['a route that answers 404', 4, (t) => t.call({ url: '/v1/nothing-here' })],
    ['GET /v1/pets?limit=20, run', 18, (t) => t.call({ url: '/v1/pets?limit=20', headers: { 'cache-control': 'no-cache' } })],
    ['GET /v1/pets?limit=20, a kept answer', 10, (t) => t.call({ url: '/v1/pets?limit=20' })],
    ['GraphQL list, run', 31, (t) => graphql(t, LIST, undefined, { ...t.auth, 'cache-control': 'no-cache' })],
    ['GraphQL list, a kept answer', 13, (t) => graphql(t, LIST)],
    ['MCP tools/call list_pets', 28, (t) => callTool(t, 'list_pets', { first: 20 })],
  ];

  it.for(budgets)('%s: at most %i', async ([, budget, send], { makeApp }) => {
    const t = await makeApp();
    const made = await promisesOf(() => send(t));
    expect(made, `${made} promises a request against a budget of ${budget}`).toBeLessThanOrEqual(budget);
  });
});
