import { describe, expect, it } from '../helpers/fixtures.ts';

let origin: string;
it.beforeAll(async ({ t }) => {
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

describe('over a real socket', () => {
  it('creates, lists and pages through pets with fetch', async ({ t }) => {
    const headers = { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' };
    for (const name of ['a', 'b', 'c']) {
      const res = await fetch(`${origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1 }) });
      expect(res.status).toBe(201);
    }
    const first = await fetch(`${origin}/v1/pets?limit=2`, { headers });
    expect(first.status).toBe(200);
    expect(((await first.json()) as { name: string }[]).map((p) => p.name)).toEqual(['a', 'b']);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    const second = await fetch(new URL(next ?? '', origin), { headers });
    expect(((await second.json()) as { name: string }[]).map((p) => p.name)).toEqual(['c']);
  });

  it('refuses a chunked body over 1 MiB with 413 and the Error body', async ({ t }) => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });
});
