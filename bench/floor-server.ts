// The yardstick: what this machine does with node:http and cached better-sqlite3
// statements alone — no framework, no validation library — with the same data, the
// same SQLite pragmas and the same auth work (SHA-256 of the bearer token and an
// indexed lookup). Not part of the product.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import SQLite from 'better-sqlite3';

const db = new SQLite(process.env.DATABASE_URL ?? '');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

const findKey = db.prepare<[string], { revoked_at: string | null }>('select revoked_at from api_keys where key_hash = ?');
const list = db.prepare<[number, number], Row>('select id, name, category_id, status from pets where id > ? order by id limit ?');
const getOne = db.prepare<[number], Row>('select id, name, category_id, status from pets where id = ?');
const insert = db.prepare<[string, number, string, string], Row>(
  'insert into pets (name, category_id, status, created_at) values (?, ?, ?, ?) returning id, name, category_id, status',
);
interface Row {
  id: number;
  name: string;
  category_id: number;
  status: string;
}
const toPet = (r: Row) => ({ id: r.id, name: r.name, categoryId: r.category_id, status: r.status });

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function authorized(req: IncomingMessage): boolean {
  const match = /^Bearer (psk_[A-Za-z0-9]{40})$/.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return false;
  const row = findKey.get(createHash('sha256').update(match[1]).digest('hex'));
  return !!row && row.revoked_at === null;
}

createServer((req, res) => {
  if (!authorized(req)) return send(res, 401, { code: 'UNAUTHORIZED', message: 'A valid API key is required.', status: 401 });
  const url = new URL(req.url ?? '/', 'http://floor');
  if (req.method === 'GET' && url.pathname === '/v1/pets') {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    return send(res, 200, list.all(0, limit).map(toPet));
  }
  const one = /^\/v1\/pets\/(\d+)$/.exec(url.pathname);
  if (req.method === 'GET' && one?.[1]) {
    const row = getOne.get(Number(one[1]));
    return row ? send(res, 200, toPet(row)) : send(res, 404, { code: 'PET_NOT_FOUND', message: 'Not found.', status: 404 });
  }
  if (req.method === 'POST' && url.pathname === '/v1/pets') {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { name: string; categoryId: number; status?: string };
      const row = insert.get(body.name, body.categoryId, body.status ?? 'available', new Date().toISOString());
      send(res, 201, row ? toPet(row) : null);
    });
    return;
  }
  send(res, 404, { code: 'NOT_FOUND', message: 'No route.', status: 404 });
}).listen(Number(process.env.PORT), '127.0.0.1');
