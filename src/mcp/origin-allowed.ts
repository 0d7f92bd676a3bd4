const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostnameOf(origin: string): string | null {
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

/**
 * Whether a browser page from `origin` may call the MCP endpoint (MCP's Streamable HTTP: servers
 * must check Origin against DNS rebinding). Allowed: the origins CORS_ORIGINS lists, this
 * server's own (PUBLIC_BASE_URL's), and a loopback page when the server is reached on loopback
 * (an agent's tools on the same machine). A page on any other name is a page the operator did
 * not list, however its name resolves: a rebound name reaches this server with its own Origin.
 */
export function originAllowed(origin: string, host: string, corsOrigins: readonly string[], publicBaseUrl: string | null): boolean {
  if (corsOrigins.includes(origin)) return true;
  if (publicBaseUrl !== null && new URL(publicBaseUrl).origin === origin) return true;
  const hostname = hostnameOf(origin);
  return hostname !== null && LOOPBACK.has(hostname) && LOOPBACK.has(hostnameOf(`http://${host}`) ?? '');
}
