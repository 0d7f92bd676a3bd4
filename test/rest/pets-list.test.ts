import { describe, expect, it } from '../helpers/fixtures.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const statuses = ['available', 'pending', 'sold'] as const;
it.override('appEnv', { PUBLIC_BASE_URL: 'https://api.example.test/v1' });
it.beforeAll(async ({ t }) => {
  for (let i = 0; i < 45; i++) {
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `pet-${i}`, categoryId: 1, status: statuses[i % 3] } });
  }
});

type Pet = { id: number; name: string; categoryId: number; status: string };
const list = (t: TestApp, query: string) => t.call({ url: `/v1/pets${query}` });

/** The next-page URL from `Link: <…>; rel="next"`, as a path for inject. */
function nextLink(link: unknown): string | null {
  const match = typeof link === 'string' ? /^<([^>]+)>; rel="next"$/.exec(link) : null;
  return match?.[1] ? match[1].replace('https://api.example.test', '') : null;
}

describe('GET /v1/pets', () => {
  it('returns a JSON array of Pet in ascending id order, 20 by default', async ({ t }) => {
    const res = await list(t, '');
    expect(res.statusCode).toBe(200);
    const pets = res.json() as Pet[];
    expect(pets).toHaveLength(20);
    expect(pets.map((p) => p.id)).toEqual([...pets.map((p) => p.id)].sort((a, b) => a - b));
    expect(Object.keys(pets[0] ?? {}).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
  });

  it('honours limit between 1 and 100', async ({ t }) => {
    expect((await list(t, '?limit=1')).json()).toHaveLength(1);
    expect((await list(t, '?limit=100')).json()).toHaveLength(45);
  });

  it('filters by status, exactly', async ({ t }) => {
    const pets = (await list(t, '?status=pending&limit=100')).json() as Pet[];
    expect(pets).toHaveLength(15);
    expect(pets.filter((p) => p.status !== 'pending')).toEqual([]);
  });

  it.for([
    ['limit=0', /'limit' must be at least 1/],
    ['limit=101', /'limit' must be at most 100/],
    ['limit=-5', /'limit' must be an integer written in plain decimal digits/],
    ['limit=1e1', /'limit' must be an integer written in plain decimal digits/],
    ['limit=%205', /'limit' must be an integer written in plain decimal digits/],
    ['limit=05', /'limit' must be an integer written in plain decimal digits/],
    ['limit=1.0', /'limit' must be an integer written in plain decimal digits/],
    ['limit=%2B5', /'limit' must be an integer written in plain decimal digits/],
    ['limit=0x10', /'limit' must be an integer written in plain decimal digits/],
    ['limit=abc', /'limit' must be an integer/],
    ['limit=2.5', /'limit' must be an integer/],
    ['limit=', /'limit' must be/],
    ['limit=5&limit=6', /'limit' must be an integer/],
    ['status=lost', /'status' must be one of: available, pending, sold/],
    ['status=Available', /'status' must be one of/],
    ['stauts=sold', /Query parameter 'stauts' is not allowed/],
  ] as const)('refuses ?%s with 400 VALIDATION_FAILED', async ([query, message], { t }) => {
    const res = await list(t, `?${query}`);
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res, 'VALIDATION_FAILED').message).toMatch(message);
  });

  it.for(['garbage', 'cGV0czow', Buffer.from('pets:-1').toString('base64url'), Buffer.from('orders:5').toString('base64url')] as const)(
    'refuses the cursor %s with 400 INVALID_CURSOR',
    async (cursor, { t }) => {
      const res = await list(t, `?cursor=${cursor}`);
      expect(res.statusCode).toBe(400);
      expectErrorBody(res, 'INVALID_CURSOR');
    },
  );

  it('links the next page (RFC 8288) with limit, status and cursor, and not past the last page', async ({ t }) => {
    const first = await list(t, '?limit=10&status=sold');
    expect(first.headers.link).toMatch(
      /^<https:\/\/api\.example\.test\/v1\/pets\?limit=10&status=sold&cursor=[A-Za-z0-9_-]+>; rel="next"$/,
    );
    const second = await t.call({ url: nextLink(first.headers.link) ?? '' });
    expect(second.json()).toHaveLength(5);
    expect(second.headers.link).toBeUndefined();
  });

  async function walk(t: TestApp, query: string, onPage: (page: number) => Promise<void>): Promise<Pet[]> {
    const seen: Pet[] = [];
    let url: string | null = `/v1/pets${query}`;
    for (let page = 0; url; page++) {
      const res = await t.call({ url });
      expect(res.statusCode).toBe(200);
      seen.push(...(res.json() as Pet[]));
      await onPage(page);
      url = nextLink(res.headers.link);
    }
    return seen;
  }

  it.for(['?limit=7', '?limit=4&status=available'] as const)(
    'walks every pet exactly once (%s) while inserts happen',
    async (query, { t }) => {
      const status = new URLSearchParams(query).get('status');
      const before = ((await list(t, `?limit=100${status ? `&status=${status}` : ''}`)).json() as Pet[]).map((p) => p.id);
      const inserted: number[] = [];
      const seen = await walk(t, query, async (page) => {
        const res = await t.call({
          method: 'POST',
          url: '/v1/pets',
          payload: { name: `late-${page}`, categoryId: 2, status: 'available' },
        });
        inserted.push(res.json().id);
      });
      const ids = seen.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      for (const id of before) expect(ids).toContain(id);
      if (status) expect(seen.filter((p) => p.status !== status)).toEqual([]);
      // A pet added behind the cursor is still reached: keyset pages never skip.
      expect(ids).toContain(inserted.at(-2));
    },
  );
});
