import type { AddressInfo } from 'node:net';

/** What a listener is bound to, as the OS reports it: `127.0.0.1:4000`, `[::]:4000`. */
export function boundAddress(server: { address(): AddressInfo | string | null }): string {
  const address = server.address();
  if (typeof address !== 'object' || !address) return String(address);
  return `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}
