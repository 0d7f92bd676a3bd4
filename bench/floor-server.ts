// The yardstick: what this machine does with node:http and the database driver alone
// (cached better-sqlite3 statements, or a pg pool with named statements) — no framework,
// no validation library — with the same data, the same statements and the same auth work
// (SHA-256 of the bearer token and an indexed lookup). Not part of the product.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openFloorStore, when } from './floor-store.ts';
import type { Row } from './floor-store.ts';

const store = openFloorStore(process.env.DATABASE_URL ?? '');
const toPet = (r: Row) => ({ id: r.id, name: r.name, categoryId: r.category_id, status: r.status });

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Calls `then` with whether the request carries a valid key. */
function authorized(req: IncomingMessage, then: (ok: boolean) => void): void {
  const match = /^Bearer (psk_[A-Za-z0-9]{40})$/.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return then(false);
  when(store.findKey(createHash('sha256').update(match[1]).digest('hex')), (row) => then(!!row && row.revoked_at === null));
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (req.method === 'GET' && url.pathname === '/v1/pets') {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    return when(store.list(0, limit), (rows) => send(res, 200, rows.map(toPet)));
  }
  const one = /^\/v1\/pets\/(\d+)$/.exec(url.pathname);
  if (req.method === 'GET' && one?.[1]) {
    return when(store.getOne(Number(one[1])), (row) =>
      row ? send(res, 200, toPet(row)) : send(res, 404, { code: 'PET_NOT_FOUND', message: 'Not found.', status: 404 }),
    );
  }
  if (req.method === 'POST' && url.pathname === '/v1/pets') {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { name: string; categoryId: number; status?: string };
      when(store.insert(body.name, body.categoryId, body.status ?? 'available', new Date().toISOString()), (row) =>
        send(res, 201, row ? toPet(row) : null),
      );
    });
    return;
  }
  send(res, 404, { code: 'NOT_FOUND', message: 'No route.', status: 404 });
}

createServer((req, res) => {
  authorized(req, (ok) =>
    ok ? handle(req, res) : send(res, 401, { code: 'UNAUTHORIZED', message: 'A valid API key is required.', status: 401 }),
  );
}).listen(Number(process.env.PORT), '127.0.0.1');
