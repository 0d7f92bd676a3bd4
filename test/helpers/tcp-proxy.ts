import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Cuts every connection and refuses new ones, as a database that went down. */
  down(): Promise<void>;
  /** Accepts again, on the same port. */
  up(): Promise<void>;
  /** New connections go to `port` from now on (an endpoint moved to a promoted standby); open ones are cut. */
  retarget(port: number, host?: string): void;
  /** Holds every byte in both directions, connections left open: a network that stalls. */
  freeze(): void;
  /** Passes what was held, and everything after. */
  thaw(): void;
  close(): Promise<void>;
}

/** A TCP relay on loopback to `target`, so a test can take a server away, move it, or stall it. */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let target = { host: targetHost, port: targetPort };
  let frozen = false;
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      if (frozen) socket.pause();
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    port,
    down: stop,
    up: () => listen(port),
    retarget(to, host = '127.0.0.1') {
      target = { host, port: to };
      for (const socket of sockets) socket.destroy();
    },
    freeze() {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    thaw() {
      frozen = false;
      for (const socket of sockets) socket.resume();
    },
    close: stop,
  };
}
