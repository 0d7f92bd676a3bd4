import { GRAPHQL_LIMITS } from '../../src/graphql/graphql-limits.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import type { GraphQLResponse } from '../helpers/graphql.ts';

/** `query { ...F0 }` where each fragment spreads the next one twice: a walk that follows every spread makes 2^levels visits. */
function doublingChain(levels: number): string {
  let document = 'query Chain { ...F0 }\n';
  for (let i = 0; i < levels; i++) document += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return `${document}fragment F${levels} on Query { __typename }\n`;
}

/**
 * `levels` of fragments, each spreading the next `spreads` times, down to `leaf`:
 * spreads^(levels+1) visits for a walk without memory, in under 1,000 tokens.
 */
function wideSpreads(levels: number, spreads: number, comment = '', leaf = '__typename'): string {
  const spread = (name: string) => Array.from({ length: spreads }, () => `...${name}`).join(' ');
  let document = `query Wide { ${spread('L0')} } # ${comment}\n`;
  for (let i = 0; i < levels; i++) document += `fragment L${i} on Query { ${spread(`L${i + 1}`)} }\n`;
  return `${document}fragment L${levels} on Query { ${leaf} }\n`;
}

let origin: string;
it.beforeAll(async ({ t }) => {
  origin = await t.listen();
});

/** POSTs over the socket, as a client would. */
async function post(query: string, key?: string): Promise<{ status: number; body: GraphQLResponse }> {
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: (await res.json()) as GraphQLResponse };
}

/**
 * Sends the documents and, beside them, asks /healthz: both must be answered before the test's
 * timeout. A walk that is not linear in the document held the event loop for 40 s and more with
 * these documents (and /healthz with it); a linear one answers in milliseconds, so the timeout
 * is a thousand times what a busy machine needs. No time is asserted.
 */
async function answeredBesideHealth(documents: string[], key?: string): Promise<{ status: number; body: GraphQLResponse }[]> {
  const answers = Promise.all(documents.map((document) => post(document, key)));
  const health = await fetch(`${origin}/healthz`);
  expect(health.status).toBe(200);
  return answers;
}

describe('every walk over a document is bounded before it runs', () => {
  it(
    'refuses a fragment chain that doubles at each level at once, with a key, and stays responsive',
    { timeout: 20_000 },
    async ({ t }) => {
      const [answer] = await answeredBesideHealth([doublingChain(24)], t.key);
      expect(answer?.status).toBe(400);
      expect(answer?.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
      expect(answer?.body.errors?.[0]?.message).toMatch(/over the limit of 8/);
    },
  );

  it(
    'walks wide fragment spreads once per fragment: answered without a key where they select only __typename (free), and stays responsive',
    { timeout: 20_000 },
    async () => {
      // 161^3 = 4.2 million spreads for a walk that follows each one; twenty distinct texts, so no memory helps.
      const documents = Array.from({ length: 20 }, (_, i) => wideSpreads(2, 161, String(i)));
      for (const answer of await answeredBesideHealth(documents)) {
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ data: { __typename: 'Query' } });
      }
    },
  );

  it(
    'weighs wide fragment spreads of a costly field once per fragment: refused on cost, and stays responsive',
    { timeout: 20_000 },
    async ({ t }) => {
      const documents = Array.from({ length: 20 }, (_, i) => wideSpreads(2, 161, String(i), 'pets(first: 1) { totalCount }'));
      for (const answer of await answeredBesideHealth(documents, t.key)) {
        expect(answer.status).toBe(400);
        expect(answer.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
        // Each of the 161^3 spreads of the page and its count: 21.
        expect(answer.body.errors?.[0]?.message).toMatch(new RegExp(`^The operation costs ${161 ** 3 * 21}, over the limit of 5000`));
      }
    },
  );

  it("leaves introspection's own nesting to graphql-js's rule, which refuses a type graph walked in circles", async ({ t }) => {
    // GraphiQL's introspection query nests a type reference seven levels: within every limit.
    const typeRef = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }';
    expect((await graphql(t, `{ __schema { types { name fields { type { ${typeRef} } } } } }`)).res.statusCode).toBe(200);
    // fields → type → fields …: each level multiplies the answer by a type's fields.
    let circle = 'name';
    for (let i = 0; i < 5; i++) circle = `fields { type { ${circle} } }`;
    const { res, body } = await graphql(t, `{ __type(name: "Pet") { ${circle} } }`);
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/Maximum introspection depth exceeded/);
  });

  it('counts a fragment used twice once per spread, as the work it stands for', async ({ t }) => {
    // Twelve aliases in a fragment spread twice: 24, over the limit of 15.
    const aliases = Array.from({ length: 12 }, (_, i) => `a${i}: __typename`).join(' ');
    const { res, body } = await graphql(t, `query { ...A ...A } fragment A on Query { ${aliases} }`);
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/24 aliases, over the limit of 15/);
  });

  it.for([
    ['itself', 'query { ...F } fragment F on Query { ...F }', 'F'],
    ['a fragment that spreads it back', 'query { ...F } fragment F on Query { ...G } fragment G on Query { __typename ...F }', 'F'],
    ['itself, unused by the operation', 'query { __typename } fragment F on Query { ...F }', 'F'],
  ] as const)('refuses a fragment that spreads %s with 400, never 500, with a key or without', async ([_label, query, name], { t }) => {
    for (const headers of [t.auth, {}]) {
      const { res, body } = await graphql(t, query, undefined, headers);
      expect(res.statusCode).toBe(400);
      expect(body.errors).toEqual([
        expect.objectContaining({
          message: `Cannot spread fragment "${name}" within itself.`,
          extensions: { code: 'VALIDATION_FAILED', status: 400 },
        }),
      ]);
    }
  });
});

describe('variables and directive arguments a client shapes', () => {
  it('refuses variables nested 20,000 deep with 400, over POST and GET, before anything walks them', async ({ t }) => {
    const variables = `{"v":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const post = await t.call({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: `{"query":"query($v: Int) { pets { totalCount } }","variables":${variables}}`,
    });
    expect(post.statusCode).toBe(400);
    expect(post.json().errors[0]).toEqual({
      message: 'The JSON nests deeper than 64 levels of objects and arrays.',
      extensions: { code: 'VALIDATION_FAILED', status: 400 },
    });
    const query = encodeURIComponent('query($v: Int) { pets { totalCount } }');
    const get = await t.call({ url: `/graphql?query=${query}&variables=${encodeURIComponent(variables.slice(0, 4000))}` });
    expect(get.statusCode).toBe(400);
    expect(get.json().errors[0].extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it.for(['application/json', 'text/event-stream', 'multipart/mixed'])(
    'refuses @stream(initialCount: -1) as the request’s error answered as %s, never a fault',
    async (accept, { t }) => {
      const send = (payload: object) =>
        t.call({ method: 'POST', url: '/graphql', headers: { accept, 'content-type': 'application/json' }, payload });
      const literal = await send({ query: '{ pets(first: 2) { nodes @stream(initialCount: -1) { id } } }' });
      expect(literal.body).toContain("@stream's initialCount must be 0 or more (got -1).");
      expect(literal.body).not.toContain('INTERNAL_ERROR');
      if (accept === 'application/json') return;
      // In a variable: known only with the variables, refused on the paths that stream.
      const variable = await send({
        query: 'query($n: Int!) { pets(first: 2) { nodes @stream(initialCount: $n) { id } } }',
        variables: { n: -3 },
      });
      expect(variable.statusCode).toBe(400);
      expect(variable.body).toContain("@stream's initialCount must be 0 or more (got -3).");
    },
  );

  it.for(['text/event-stream', 'multipart/mixed'])(
    'refuses @stream(initialCount: null), literal or in a variable, as the request’s error answered as %s, never a fault',
    async (accept, { makeApp }) => {
      const lines: string[] = [];
      const t = await makeApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
      const send = (payload: object) =>
        t.call({ method: 'POST', url: '/graphql', headers: { accept, 'content-type': 'application/json' }, payload });
      const byVariable = 'query($n: Int) { pets(first: 2) { nodes @stream(initialCount: $n) { id } } }';
      for (const payload of [
        { query: '{ pets(first: 2) { nodes @stream(initialCount: null) { id } } }' },
        { query: byVariable, variables: { n: null } },
      ]) {
        const res = await send(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.body).toContain("@stream's initialCount must be 0 or more (got null).");
        expect(res.body).not.toContain('INTERNAL_ERROR');
      }
      // A variable left out takes the argument's default (0): streamed.
      expect((await send({ query: byVariable })).statusCode).toBe(200);
      // As JSON the whole answer comes at once, and no initialCount is read.
      const whole = await t.call({
        method: 'POST',
        url: '/graphql',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        payload: { query: byVariable, variables: { n: null } },
      });
      expect(whole.statusCode).toBe(200);
      // Nothing a client sent was logged as a fault.
      expect(lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
    },
  );
});

describe('a document is at most 16 KiB, comments included, before anything parses it', () => {
  it('refuses a body over 64 KiB before reading it as JSON, with 413, without a key', async ({ t }) => {
    const query = `query Q { __typename } # ${'x'.repeat(1024 * 1024 - 100)}`;
    const { res, body } = await graphql(t, query, undefined, {});
    expect(res.statusCode).toBe(413);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  it('refuses a small operation padded with a comment, without a key, naming the size', async ({ t }) => {
    const query = `query Q { __typename } # ${'x'.repeat(GRAPHQL_LIMITS.maxBodyBytes - 1_000)}`;
    const { res, body } = await graphql(t, query, undefined, {});
    expect(res.statusCode).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    expect(body.errors?.[0]?.message).toBe(
      `The GraphQL document is ${query.length} bytes, over the limit of ${GRAPHQL_LIMITS.maxBytes} (comments and whitespace included).`,
    );
  });

  it('counts bytes, not characters: two-byte characters fill it at half the length', async ({ t }) => {
    const padding = 'é'.repeat(GRAPHQL_LIMITS.maxBytes / 2);
    const { res } = await graphql(t, `{ __typename } # ${padding}`, undefined, {});
    expect(res.statusCode).toBe(400);
    const within = 'é'.repeat(GRAPHQL_LIMITS.maxBytes / 2 - 20);
    expect((await graphql(t, `{ __typename } # ${within}`, undefined, {})).res.statusCode).toBe(200);
  });

  it('refuses the same over GET', async ({ t }) => {
    const query = `{ __typename } # ${'x'.repeat(GRAPHQL_LIMITS.maxBytes)}`;
    const res = await t.call({
      url: `/graphql?query=${encodeURIComponent(query)}`,
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('keeps the parsed documents it remembers within their byte bound, however many distinct ones arrive', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0', RATE_LIMIT_PER_MINUTE: '0' });
    // Near the size limit, each distinct: the most memory a document can be made to hold.
    const aliases = Array.from({ length: 15 }, (_, i) => `a${i}: __typename`).join(' ');
    for (let i = 0; i < 120; i++) {
      const query = `query Q${i} { ${aliases} } # ${'x'.repeat(GRAPHQL_LIMITS.maxBytes - 400)}`;
      expect((await graphql(t, query, undefined, {})).res.statusCode).toBe(200);
    }
    const exposition = await t.scrape();
    const bytes = Number(/^petstore_graphql_documents_cached_bytes (\d+)$/m.exec(exposition)?.[1]);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
  });
});
