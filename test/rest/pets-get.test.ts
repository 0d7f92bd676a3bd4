import { describe, expect, it } from '../helpers/fixtures.ts';
import { expectErrorBody } from '../helpers/test-app.ts';

let petId: number;
it.beforeAll(async ({ t }) => {
  petId = (await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Kitty', categoryId: 2, status: 'pending' } })).json().id;
});

function expectDeprecationHeaders(headers: Record<string, unknown>): void {
  expect(headers.deprecation).toMatch(/^@\d+$/);
  expect(headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(headers.link).toBe('</v1/pets>; rel="successor-version"');
}

describe('GET /v1/pets/{petId} (deprecated)', () => {
  it('returns the Pet with the deprecation headers', async ({ t }) => {
    const res = await t.call({ url: `/v1/pets/${petId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: petId, name: 'Kitty', categoryId: 2, status: 'pending' });
    expectDeprecationHeaders(res.headers);
    expect(Number(String(res.headers.deprecation).slice(1))).toBeLessThan(Date.UTC(2030, 11, 5) / 1000);
  });

  it('answers 404 PET_NOT_FOUND for an absent pet, still deprecated', async ({ t }) => {
    const res = await t.call({ url: '/v1/pets/424242' });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res, 'PET_NOT_FOUND');
    expectDeprecationHeaders(res.headers);
  });

  it.for(['abc', '0', '-1', '1.5', '9007199254740992', '99999999999999999999', '0x10', '1e3', '+1', '01', '1.0', '%201', '1%20'] as const)(
    'answers 400 for the petId %s',
    async (id, { t }) => {
      const res = await t.call({ url: `/v1/pets/${id}` });
      expect(res.statusCode).toBe(400);
      expectErrorBody(res, 'VALIDATION_FAILED');
      expectDeprecationHeaders(res.headers);
    },
  );

  it('answers 401 without a key, still deprecated', async ({ t }) => {
    const res = await t.app.inject({ url: `/v1/pets/${petId}` });
    expect(res.statusCode).toBe(401);
    expectErrorBody(res, 'UNAUTHORIZED');
    expectDeprecationHeaders(res.headers);
  });
});
