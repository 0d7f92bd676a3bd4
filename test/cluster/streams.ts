import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { subscribe } from '../helpers/sse-client.ts';

export type Transport = 'SSE' | 'multipart' | 'WebSocket';
export const TRANSPORTS: Transport[] = ['SSE', 'multipart', 'WebSocket'];

/** A subscription to new pets, opened the way each transport's clients open it; `seen` is every event's JSON so far. */
export interface Stream {
  seen(): string;
  close(): Promise<void>;
}

const PET_CREATED = 'subscription { petCreated { id name } }';

async function multipart(origin: string, key: string): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json',
    },
    body: JSON.stringify({ query: PET_CREATED }),
    signal: abort.signal,
  });
  let text = '';
  void (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString();
    } catch {
      // Closed by close(), or by the server: the text so far stands.
    }
  })();
  return { seen: () => text, close: async () => abort.abort() };
}

async function sse(origin: string, key: string): Promise<Stream> {
  const sub = await subscribe(origin, PET_CREATED, {}, { authorization: `Bearer ${key}` });
  const events: string[] = [];
  void (async () => {
    try {
      for (;;) events.push(JSON.stringify(await sub.next(600_000)));
    } catch {
      // The stream ended (or was closed): the events so far stand.
    }
  })();
  return { seen: () => events.join('\n'), close: async () => sub.close() };
}

async function websocket(origin: string, key: string): Promise<Stream> {
  const client = createClient({
    url: `${origin.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
  const events: string[] = [];
  client.subscribe(
    { query: PET_CREATED },
    {
      next: (value) => void events.push(JSON.stringify(value)),
      error: (error) => void events.push(JSON.stringify({ error: String((error as { reason?: string }).reason ?? error) })),
      complete: () => void events.push('complete'),
    },
  );
  return { seen: () => events.join('\n'), close: async () => void (await client.dispose()) };
}

export function openStream(transport: Transport, origin: string, key: string): Promise<Stream> {
  return transport === 'SSE' ? sse(origin, key) : transport === 'multipart' ? multipart(origin, key) : websocket(origin, key);
}
