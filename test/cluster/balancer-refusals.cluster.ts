import { errorMessage } from '../../src/errors/index.ts';
import { freePort } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { startBalancer } from './balancer.ts';
import { startNginx } from './nginx.ts';

// The balancers' own refusals, with no instance behind them: the contract's Error body and
// Retry-After, never their HTML pages (deploy/haproxy.cfg, deploy/nginx.conf).

/** Addresses where nothing listens: every instance down. */
const nowhere = async () => Promise.all([0, 1, 2].map(async () => `127.0.0.1:${await freePort()}`));

describe('a balancer with no instance ready', () => {
  it.for([
    { name: 'HAProxy', start: startBalancer, status: 503, code: 'SERVICE_UNAVAILABLE', words: 'balancerNoInstance', retryAfter: '5' },
    { name: 'nginx', start: startNginx, status: 502, code: 'BAD_GATEWAY', words: 'balancerInstanceFailed', retryAfter: '1' },
  ] as const)('$name answers with the Error body and Retry-After, on both faces', async ({ start, status, code, words, retryAfter }) => {
    const balancer = await start(await freePort(), await nowhere(), () => true);
    try {
      for (const [method, path, body] of [
        ['GET', '/v1/pets', undefined],
        ['POST', '/graphql', JSON.stringify({ query: '{ pets { totalCount } }' })],
      ] as const) {
        const res = await fetch(`${balancer.origin}${path}`, { method, body, headers: { 'content-type': 'application/json' } });
        expect(res.status, `${method} ${path}`).toBe(status);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.headers.get('retry-after')).toBe(retryAfter);
        expect(await res.json()).toEqual({ code, message: errorMessage(code, words), status });
      }
    } finally {
      await balancer.stop();
    }
  });
});
