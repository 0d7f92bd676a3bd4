import { describe, expect, it } from '../helpers/fixtures.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const create = (t: TestApp, payload: unknown) => t.call({ method: 'POST', url: '/v1/pets', payload: payload as object });

describe('POST /v1/pets', () => {
  it('creates a pet: 201, the Pet with its id, a Location, and status defaulting to available', async ({ t }) => {
    const res = await create(t, { name: 'Rex', categoryId: 3 });
    expect(res.statusCode).toBe(201);
    const pet = res.json();
    expect(pet).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 3, status: 'available' });
    expect(res.headers.location).toBe(`/v1/pets/${pet.id}`);
    const again = await t.call({ url: `/v1/pets/${pet.id}` });
    expect(again.json()).toEqual(pet);
  });

  it('keeps a given status and the largest exact categoryId (2^53−1)', async ({ t }) => {
    const res = await create(t, { name: 'Tom', categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ categoryId: 9007199254740991, status: 'sold' });
  });

  const invalid: [string, unknown, RegExp][] = [
    ['name missing', { categoryId: 1 }, /'name' is required/],
    ['categoryId missing', { name: 'A' }, /'categoryId' is required/],
    ['empty name', { name: '', categoryId: 1 }, /'name' must not be empty/],
    ['blank name', { name: '   ', categoryId: 1 }, /'name' must contain a non-blank/],
    ['name too long', { name: 'x'.repeat(101), categoryId: 1 }, /'name' must be at most 100 characters/],
    ['name not a string', { name: 42, categoryId: 1 }, /'name' must be a string/],
    ['categoryId as a string', { name: 'A', categoryId: '5' }, /'categoryId' must be an integer/],
    ['categoryId null', { name: 'A', categoryId: null }, /'categoryId' must be an integer/],
    ['categoryId fractional', { name: 'A', categoryId: 2.5 }, /'categoryId' must be an integer/],
    ['categoryId zero', { name: 'A', categoryId: 0 }, /'categoryId' must be at least 1/],
    ['categoryId negative', { name: 'A', categoryId: -7 }, /'categoryId' must be at least 1/],
    ['categoryId 2^53', { name: 'A', categoryId: 2 ** 53 }, /'categoryId' must be at most 9007199254740991/],
    ['status unknown', { name: 'A', categoryId: 1, status: 'lost' }, /'status' must be one of: available, pending, sold/],
    ['status wrongly cased', { name: 'A', categoryId: 1, status: 'Sold' }, /'status' must be one of/],
    ['a client-sent id', { id: 99, name: 'A', categoryId: 1 }, /Field 'id' is not allowed/],
    ['an unknown field', { name: 'A', categoryId: 1, colour: 'red' }, /Field 'colour' is not allowed/],
    [
      'an unknown field with a 10,000-character name',
      { name: 'A', categoryId: 1, ['k'.repeat(10_000)]: 1 },
      /^Field 'k{100}…' is not allowed\.$/,
    ],
    ['an array body', [{ name: 'A', categoryId: 1 }], /request body must be a JSON object/],
  ];
  it.for(invalid)('refuses %s with 400 VALIDATION_FAILED naming the field, storing nothing', async ([_label, payload, message], { t }) => {
    const before = await t.count('pets');
    const res = await create(t, payload);
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res, 'VALIDATION_FAILED').message).toMatch(message);
    expect(await t.count('pets')).toBe(before);
  });

  it('refuses a categoryId beyond 2^53 written in the JSON text instead of rounding it', async ({ t }) => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/pets',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"A","categoryId":9007199254740993}',
    });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res, 'VALIDATION_FAILED');
  });

  it('refuses invalid JSON, an empty body and a missing body with 400', async ({ t }) => {
    const bad = await t.call({
      method: 'POST',
      url: '/v1/pets',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "A",',
    });
    expect(bad.statusCode).toBe(400);
    expectErrorBody(bad, 'INVALID_JSON');
    const empty = await t.call({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(empty.statusCode).toBe(400);
    expectErrorBody(empty, 'INVALID_JSON');
    const none = await t.call({ method: 'POST', url: '/v1/pets' });
    expect(none.statusCode).toBe(400);
    expectErrorBody(none, 'VALIDATION_FAILED');
  });

  it('refuses a body that is not application/json with 400 INVALID_CONTENT_TYPE', async ({ t }) => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.call({ method: 'POST', url: '/v1/pets', headers: { 'content-type': type }, payload: 'name=A&categoryId=1' });
      expect(res.statusCode, type).toBe(400);
      expectErrorBody(res, 'INVALID_CONTENT_TYPE');
    }
  });

  it('refuses a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async ({ t }) => {
    const before = await t.count('pets');
    const res = await create(t, { name: 'A', categoryId: 1, padding: 'x'.repeat(1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expectErrorBody(res, 'PAYLOAD_TOO_LARGE');
    expect(await t.count('pets')).toBe(before);
  });

  it('gives 100 concurrent creates 100 distinct ids, each readable', async ({ t }) => {
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => create(t, { name: `pup-${i}`, categoryId: 1 + i })));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(100).fill(201));
    const ids = responses.map((r) => r.json().id as number);
    expect(new Set(ids).size).toBe(100);
    const reads = await Promise.all(ids.map((id) => t.call({ url: `/v1/pets/${id}` })));
    reads.forEach((r, i) => expect(r.json()).toMatchObject({ id: ids[i], name: `pup-${i}`, categoryId: 1 + i }));
  });
});

describe('text that is not well-formed Unicode', () => {
  it.for([
    ['a lone high surrogate', '"\\ud800"'],
    ['a lone low surrogate inside text', '"Re\\udc00x"'],
    ['a reversed pair', '"\\ude00\\ud83d"'],
    ['a NUL character', '"Re\\u0000x"'],
  ] as const)('is refused (%s) on both faces with the same message, and nothing is stored', async ([_label, jsonString], { t }) => {
    const message = "Field 'name' must be well-formed Unicode text without NUL (U+0000) or a lone surrogate.";
    const before = (await t.db.selectFrom('pets').select('id').execute()).length;
    const rest = await t.call({
      method: 'POST',
      url: '/v1/pets',
      headers: { 'content-type': 'application/json' },
      payload: `{"name":${jsonString},"categoryId":1}`,
    });
    expect(expectErrorBody(rest, 'VALIDATION_FAILED').message).toBe(message);
    const gql = await t.call({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: `{"query":"mutation($n: String!) { createPet(input: { name: $n, categoryId: 1 }) { id } }","variables":{"n":${jsonString}}}`,
    });
    expect(gql.json().errors[0]).toMatchObject({ message, extensions: { code: 'VALIDATION_FAILED', status: 400 } });
    const message2 = await t.call({
      method: 'POST',
      url: '/messages',
      headers: { 'content-type': 'application/json' },
      payload: `{"message":${jsonString}}`,
    });
    expect(expectErrorBody(message2, 'VALIDATION_FAILED').message).toBe(
      "Field 'message' must be well-formed Unicode text without NUL (U+0000) or a lone surrogate.",
    );
    expect((await t.db.selectFrom('pets').select('id').execute()).length).toBe(before);
  });

  it('keeps emoji and other astral characters (surrogate pairs) intact', async ({ t }) => {
    const res = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Rex 🐕‍🦺 𝔘', categoryId: 1 } });
    expect(res.statusCode).toBe(201);
    expect((await t.call({ url: `/v1/pets/${res.json().id}` })).json().name).toBe('Rex 🐕‍🦺 𝔘');
  });
});
