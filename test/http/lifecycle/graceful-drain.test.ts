import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { keepAliveAgent } from '../../helpers/raw-http.ts';
import { expectErrorBody } from '../../helpers/test-app.ts';

/** One GET on `agent`'s connection, with the Connection header the server answered. */
function get(origin: string, path: string, headers: Record<string, string>, agent: ReturnType<typeof keepAliveAgent>) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const req = request(new URL(path, origin), { headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('draining with SHUTDOWN_DELAY_MS', () => {
  it('turns /readyz to 503 at once, still serves (telling clients to reconnect elsewhere), then stops listening', async ({ makeApp }) => {
    const t = await makeApp({ SHUTDOWN_DELAY_MS: '5000' });
    const origin = await t.listen();
    const agent = keepAliveAgent();
    expect(await get(origin, '/v1/pets', t.auth, agent)).toEqual({ status: 200, connection: 'keep-alive' });
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);

    const drained = t.app.drainAndClose();
    const ready = await t.app.inject({ url: '/readyz' });
    expect(expectErrorBody(ready, 'NOT_READY').message).toBe('The server is shutting down; send requests to another instance.');
    // The balancer has not noticed yet: what it sends on the open connection is served, and that connection closes.
    expect(await get(origin, '/v1/pets', t.auth, agent)).toEqual({ status: 200, connection: 'close' });

    await drained;
    await expect(get(origin, '/healthz', {}, keepAliveAgent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 30_000);
});

describe('closing', () => {
  it('ends connections that never sent a request instead of waiting for their clients', async ({ makeApp }) => {
    const t = await makeApp();
    const origin = await t.listen();
    const agent = keepAliveAgent();
    // A connection that served a request, kept alive, and a spare a client opened and never used.
    expect(await get(origin, '/v1/pets', t.auth, agent)).toEqual({ status: 200, connection: 'keep-alive' });
    const spare = connect(Number(new URL(origin).port), '127.0.0.1');
    await new Promise((resolve) => spare.once('connect', resolve));
    const spareClosed = new Promise((resolve) => spare.once('close', resolve));
    spare.on('error', () => undefined);
    await t.app.drainAndClose();
    await spareClosed;
    expect(spare.destroyed).toBe(true);
  });
});
