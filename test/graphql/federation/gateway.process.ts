import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeServices } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { freePort } from '../../helpers/cli.ts';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { graphql } from '../../helpers/graphql.ts';
import { REVIEWS, REVIEWS_SDL, startReviewsSubgraph } from '../../helpers/reviews-subgraph.ts';
import type { ReviewsSubgraph } from '../../helpers/reviews-subgraph.ts';
import { spyOnSelects } from '../../helpers/select-spy.ts';
import type { TestApp } from '../../helpers/test-app.ts';

// This server in a supergraph behind Hive Gateway (from npm, as a process), beside a second
// subgraph another team would write (reviews of pets, keyed by Pet.id): the gateway configured as
// docs/graphql.md ("Federation") tells a platform team to, forwarding the client's Authorization
// and with demand control at the server's own maximum.

const BIN = fileURLToPath(new URL('hive-gateway/node_modules/@graphql-hive/gateway/dist/bin.js', import.meta.url));
const selects: string[] = [];

it.override('appEnv', { GRAPHQL_FEDERATION: 'true' });
it.override('appOptions', { wrapDb: spyOnSelects((table) => selects.push(table)) });

interface Supergraph {
  gateway: string;
  reviews: ReviewsSubgraph;
}

let supergraph: Supergraph;
let gatewayProcess: ChildProcess | undefined;
let folder: string | undefined;

it.beforeAll(async ({ t }) => {
  const tmp = mkdtempSync(join(tmpdir(), 'petstore-supergraph-'));
  folder = tmp;
  // Installed by .ci/run (npm ci --prefix test/graphql/federation/hive-gateway); a run without it fails here, by design.
  expect(existsSync(BIN), 'npm ci --prefix test/graphql/federation/hive-gateway').toBe(true);
  for (const name of ['Rex', 'Tom', 'Kiki']) await t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } });
  await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: 2 } });
  const reviews = await startReviewsSubgraph();
  const sdl = ((await graphql(t, '{ _service { sdl } }')).body.data as { _service: { sdl: string } })._service.sdl;
  const composed = composeServices([
    { name: 'petstore', typeDefs: parse(sdl), url: `${await t.listen()}/graphql` },
    { name: 'reviews', typeDefs: parse(REVIEWS_SDL), url: reviews.url },
  ]);
  expect(composed.errors ?? []).toEqual([]);
  writeFileSync(join(tmp, 'supergraph.graphql'), composed.supergraphSdl ?? '');
  // As docs/graphql.md gives it: the client's key goes on to the subgraphs; the server's maximum cost.
  writeFileSync(
    join(tmp, 'gateway.config.mjs'),
    `export const gatewayConfig = {
  supergraph: ${JSON.stringify(join(tmp, 'supergraph.graphql'))},
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get('authorization') ?? '' }),
  },
  demandControl: { maxCost: 5000 },
};
`,
  );
  const port = await freePort();
  gatewayProcess = spawn(
    process.execPath,
    [BIN, 'supergraph', '-c', join(tmp, 'gateway.config.mjs'), '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: tmp,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  gatewayProcess.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const gateway = `http://127.0.0.1:${port}/graphql`;
  for (let waited = 0; ; waited += 250) {
    if (gatewayProcess.exitCode !== null) throw new Error(`Hive Gateway exited: ${stderr}`);
    if ((await fetch(`http://127.0.0.1:${port}/readiness`).catch(() => null))?.status === 200) break;
    if (waited > 60_000) throw new Error(`Hive Gateway was not ready within a minute: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  supergraph = { gateway, reviews };
}, 120_000);

it.afterAll(async () => {
  gatewayProcess?.kill('SIGTERM');
  await supergraph?.reviews.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A query through the gateway, as a front end sends it. */
async function throughGateway(query: string, headers: Record<string, string>, variables?: Record<string, unknown>) {
  const res = await fetch(supergraph.gateway, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] },
  };
}

const codeOf = (answer: { body: { errors?: { extensions?: Record<string, unknown> }[] } }) => answer.body.errors?.[0]?.extensions?.code;

describe('this server as a subgraph behind Hive Gateway', () => {
  it('answers a pet with its reviews and its orders as each subgraph answers its part', async ({ t }) => {
    const { status, body } = await throughGateway(
      '{ pets(first: 3) { nodes { id name orders { id status } reviews { stars body } } } }',
      t.auth,
    );
    expect(status).toBe(200);
    const direct = await graphql(t, '{ pets(first: 3) { nodes { id name orders { id status } } } }');
    const ours = direct.body.data as {
      pets: { nodes: { id: string }[] };
    };
    expect(body).toEqual({
      data: { pets: { nodes: ours.pets.nodes.map((pet) => ({ ...pet, reviews: REVIEWS[pet.id] ?? [] })) } },
    });
    // The reviews subgraph was asked for the three pets at once.
    expect(supergraph.reviews.batches.at(-1)).toEqual(['1', '2', '3']);
  });

  it('resolves the pets another subgraph names in one query here, whatever their number', async ({ t }) => {
    selects.length = 0;
    const { body } = await throughGateway('{ topPets { id name status } }', t.auth);
    expect(body).toEqual({
      data: {
        topPets: [
          { id: '2', name: 'Tom', status: 'pending' },
          { id: '1', name: 'Rex', status: 'available' },
          { id: '3', name: 'Kiki', status: 'available' },
        ],
      },
    });
    expect(selects.filter((table) => table === 'pets')).toHaveLength(1);
  });

  it("refuses a missing or revoked key with this server's code", async ({ t }) => {
    const query = '{ pets(first: 1) { nodes { id } } }';
    expect(codeOf(await throughGateway(query, {}))).toBe('UNAUTHORIZED');
    const { key, id } = await createKeyFor(t);
    expect((await throughGateway(query, { authorization: `Bearer ${key}` })).body.data).toBeDefined();
    expect((await t.call({ method: 'DELETE', url: `/v1/keys/${id}` })).statusCode).toBe(200);
    expect(codeOf(await throughGateway(query, { authorization: `Bearer ${key}` }))).toBe('UNAUTHORIZED');
  });

  it('refuses with demand control exactly what this server refuses on cost, by the same directives', async ({ t }) => {
    // Each alias: the page 11, its 100 pets 1 each, their orders 2 and each order's pet 2: 511.
    const pages = (count: number, size: number | '$n' = 100) =>
      `query${size === '$n' ? '($n: Int)' : ''} { ${Array.from({ length: count }, (_, i) => `p${i}: pets(first: ${size}) { nodes { id orders { id pet { name } } } }`).join(' ')} }`;
    const documents: [string, Record<string, unknown>][] = [
      [pages(9), {}], // 4,599
      [pages(10), {}], // 5,110
      [pages(10, '$n'), { n: 97 }], // 4,980
      [pages(10, '$n'), { n: 98 }], // 5,030
      ['{ orders(first: 100) { totalCount nodes { pet { orders { id pet { id } } } } pageInfo { hasNextPage } } }', {}], // 543
      [`{ ${Array.from({ length: 250 }, (_, i) => `c${i}: pets(first: 1) { totalCount }`).join(' ')} }`, {}], // 5,250
    ];
    const verdicts: boolean[] = [];
    for (const [document, variables] of documents) {
      const direct = await graphql(t, document, variables);
      const through = await throughGateway(document, t.auth, variables);
      const refusedHere = codeOf(direct) === 'QUERY_TOO_COMPLEX';
      verdicts.push(refusedHere);
      expect(codeOf(through) === 'COST_ESTIMATED_TOO_EXPENSIVE', document.slice(0, 60)).toBe(refusedHere);
      if (!refusedHere) expect(through.body.data, document.slice(0, 60)).toEqual(direct.body.data);
    }
    expect(verdicts).toEqual([false, true, false, true, false, true]);
  });

  it('counts a page whose size is not given as one item, where this server counts 20: the server still refuses it', async ({ t }) => {
    // Hive Gateway reads `assumedSize` only for a list without slicing arguments; the server
    // pages 20 by default and counts them. 25 pages of 20 pets with their orders and pets cost
    // 25 × (11 + 20 × 5) = 2,775 here; with 60, 6,660: refused by this server, let by the gateway.
    const document = `{ ${Array.from({ length: 60 }, (_, i) => `p${i}: pets { nodes { id orders { id pet { name } } } }`).join(' ')} }`;
    expect(codeOf(await graphql(t, document))).toBe('QUERY_TOO_COMPLEX');
    expect(codeOf(await throughGateway(document, t.auth))).toBe('QUERY_TOO_COMPLEX');
  });
});

async function createKeyFor(t: TestApp): Promise<{ key: string; id: string }> {
  const res = await t.call({ method: 'POST', url: '/v1/keys', payload: { name: 'through-the-gateway' } });
  const { key, id } = res.json() as { key: string; id: number | string };
  return { key, id: String(id) };
}
