import { Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  body: string;
}

/**
 * One request through node:http. With no agent, on its own connection; with a keep-alive
 * agent, the way real clients and load balancers reuse connections. Errors keep their
 * code, so a refused connection and a reset one can be told apart.
 */
export function rawRequest(origin: string, method: string, path: string, headers: Record<string, string>, body?: string, agent?: Agent): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, origin),
      { method, headers: agent ? headers : { ...headers, connection: 'close' }, agent: agent ?? false },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}
