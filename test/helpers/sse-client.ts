/** One event of a GraphQL over SSE stream: `next` with a result, or `complete`. */
export interface SseEvent {
  event: string;
  data: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string; status?: number } }[] } | null;
}

export interface Subscription {
  status: number;
  contentType: string;
  headers: Headers;
  /** The next event; rejects when the stream ends first or after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Resolves once the server has closed the stream. */
  ended: Promise<void>;
  /** Heartbeat comments (`:`) seen so far. */
  pings(): number;
  close(): void;
}

/** Subscribes the way a front end does: POST with Accept: text/event-stream over a real socket, parsing events as they arrive. */
export async function subscribe(
  origin: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Subscription> {
  const abort = new AbortController();
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  let pings = 0;
  let done = false;
  const wake = () => waiters.splice(0).forEach((w) => w());
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of (res.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) pings++;
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: ?(.*)$/m.exec(block)?.[1] ?? '';
          if (event) events.push({ event, data: data ? (JSON.parse(data) as SseEvent['data']) : null });
          wake();
        }
      }
    } catch {
      // Aborted by close(): the stream is over either way.
    } finally {
      done = true;
      wake();
    }
  })();
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    headers: res.headers,
    async next(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const event = events.shift();
        if (event) return event;
        if (done) throw new Error('the stream ended');
        if (Date.now() > deadline) throw new Error('no event in time');
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    ended,
    pings: () => pings,
    close: () => abort.abort(),
  };
}
