import { randomBytes } from 'node:crypto';

/**
 * Redis for the tests of budgets shared across instances: TEST_REDIS_URL (CI sets it; plain
 * `npm test` needs no Redis, and those tests say they were skipped). Each test counts under a
 * key prefix of its own, so runs and parallel files never share a budget.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? '';

export function redisEnv(): { REDIS_URL: string; REDIS_KEY_PREFIX: string } {
  return { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `petstore-test:${process.pid}:${randomBytes(4).toString('hex')}:` };
}
