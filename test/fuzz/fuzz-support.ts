import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { it } from '../helpers/fixtures.ts';
import { errorCatalogue } from '../../src/errors/index.ts';
import type { TestApp } from '../helpers/test-app.ts';

/** Cases per route or operation: a few hundred in CI, `npm run test:fuzz` asks for 1,000+. */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

/** The invariant of every fuzzed answer: a success, or a client error in the contract's Error body. Never a 5xx. */
export function expectCleanRestAnswer(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
    expect(body.status).toBe(res.statusCode);
    expect(Object.keys(errorCatalogue)).toContain(body.code);
  }
}

export function expectCleanGraphQLAnswer(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBeLessThan(500);
  const body = JSON.parse(res.body) as { errors?: { message: string; extensions?: { code?: string; status?: number } }[] };
  for (const error of body.errors ?? []) {
    expect(typeof error.message).toBe('string');
    expect(Object.keys(errorCatalogue), JSON.stringify(error)).toContain(error.extensions?.code);
    expect(error.extensions?.code).not.toBe('INTERNAL_ERROR');
    expect(error.extensions?.status).toBeLessThan(500);
  }
}

/** Whatever was fuzzed, every stored row obeys the rules the services enforce. */
export async function expectOnlyValidRows(t: TestApp): Promise<void> {
  const pets = await t.db.selectFrom('pets').selectAll().execute();
  for (const pet of pets) {
    expect(pet.name.length).toBeGreaterThanOrEqual(1);
    expect([...pet.name].length).toBeLessThanOrEqual(100);
    expect(pet.name).toMatch(/\S/);
    expect(Number.isSafeInteger(pet.category_id) && pet.category_id >= 1).toBe(true);
    expect(['available', 'pending', 'sold']).toContain(pet.status);
  }
  for (const message of await t.db.selectFrom('messages').selectAll().execute()) {
    expect(message.message.length).toBeGreaterThanOrEqual(1);
    expect([...message.message].length).toBeLessThanOrEqual(4096);
  }
  for (const order of await t.db.selectFrom('orders').selectAll().execute()) {
    expect(order.quantity).toBeGreaterThanOrEqual(1);
    expect(order.quantity).toBeLessThanOrEqual(100);
    expect(['placed', 'approved', 'delivered']).toContain(order.status);
  }
}

/** Printable header text (what an HTTP client can send at all). */
export const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });

/** Values of every JSON shape, with the edges that break naive code. */
export const jsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    0,
    -1,
    1.5,
    2 ** 53,
    2 ** 53 - 1,
    -(2 ** 53),
    1e308,
    '',
    ' ',
    '\u0000',
    '1',
    'null',
    'available',
    'Sold',
    '__proto__',
    'a'.repeat(5000),
  ),
);

export const anyObject = fc.dictionary(
  fc.oneof(
    fc.constantFrom('name', 'categoryId', 'status', 'id', 'message', 'petId', 'quantity', 'shipDate', '__proto__', 'constructor'),
    fc.string({ maxLength: 12 }),
  ),
  jsonValue,
  { maxKeys: 5 },
);

/** A property over the file's app: `run` gets each generated value and the app; afterwards no invalid row is stored. */
export function property<T>(name: string, arb: fc.Arbitrary<T>, run: (value: T, t: TestApp) => Promise<void>): void {
  it(
    name,
    async ({ t }) => {
      await fc.assert(
        fc.asyncProperty(arb, (value) => run(value, t)),
        { numRuns: RUNS },
      );
      await expectOnlyValidRows(t);
    },
    120_000,
  );
}
