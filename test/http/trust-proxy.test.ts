import { describe, expect, it } from '../helpers/fixtures.ts';

const logLines = () => {
  const lines: string[] = [];
  return { lines, logStream: { write: (line: string) => void lines.push(line) } };
};
const requestIps = (lines: string[]) =>
  lines
    .map((line) => JSON.parse(line) as { msg?: string; ip?: string })
    .filter((l) => l.msg === 'request')
    .map((l) => l.ip);

describe('TRUST_PROXY', () => {
  it('off (the default): a forged X-Forwarded-For changes neither the per-address budget nor the logged address', async ({ makeApp }) => {
    const log = logLines();
    const t = await makeApp({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '2', LOG_LEVEL: 'info' }, log);
    const statuses = [];
    for (const forged of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      statuses.push(
        (await t.app.inject({ url: '/v1/pets', remoteAddress: '198.51.100.7', headers: { 'x-forwarded-for': forged } })).statusCode,
      );
    }
    expect(statuses).toEqual([401, 401, 429]);
    expect(requestIps(log.lines)).toEqual(['198.51.100.7', '198.51.100.7', '198.51.100.7']);
  });

  it('listing the proxy: the client address it forwards counts and is logged; from anyone else the header is ignored', async ({
    makeApp,
  }) => {
    const log = logLines();
    const t = await makeApp({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '2', LOG_LEVEL: 'info', TRUST_PROXY: '10.0.0.0/8' }, log);
    const viaProxy = (client: string) =>
      t.app.inject({ url: '/v1/pets', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': `${client}` } }).then((r) => r.statusCode);
    // Two clients behind the proxy: a budget each.
    expect([await viaProxy('203.0.113.1'), await viaProxy('203.0.113.1'), await viaProxy('203.0.113.1')]).toEqual([401, 401, 429]);
    expect(await viaProxy('203.0.113.2')).toBe(401);
    // A client that reaches the server directly cannot borrow another address's budget.
    const direct = () => t.app.inject({ url: '/v1/pets', remoteAddress: '198.51.100.7', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect([(await direct()).statusCode, (await direct()).statusCode, (await direct()).statusCode]).toEqual([401, 401, 429]);
    expect(requestIps(log.lines)).toEqual([
      '203.0.113.1',
      '203.0.113.1',
      '203.0.113.1',
      '203.0.113.2',
      '198.51.100.7',
      '198.51.100.7',
      '198.51.100.7',
    ]);
  });
});
