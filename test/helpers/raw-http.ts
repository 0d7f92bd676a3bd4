import { Agent, request } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  body: string;
}

/**
 * One request through node:http. With no agent, on its own connection; with a keep-alive
 * agent, the way real clients and load balancers reuse connections. Errors keep their
 * code, so a refused connection and a reset one can be told apart.
 */
export function rawRequest(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  agent?: Agent,
): Promise<RawResponse> {
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

/** Writes bytes on a fresh TCP connection and resolves with everything the server sent before it closed (or `waitMs` passed). */
export function rawSocket(origin: string, bytes: string, waitMs = 5_000): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', reject);
    socket.write(bytes);
  });
}
