// The REST list by hand: every feature this project's `GET /v1/pets` has, written as one Fastify
// route over better-sqlite3, the way a team might write it without this project's layers (issue
// 55's anchor for the REST list). Same answer, byte for byte, and the same headers: the request
// id, the key checked by its SHA-256 and remembered until the database's data version moves, its
// last use written every 10 s, a rate limit counted in memory with its two headers, the query
// checked, the versions and the key's standing read in one statement (answered again while
// SQLite's two counters stand still), the weak ETag and If-None-Match, the Link header, the
// security and cache headers, and one access line a request through sonic-boom, batched.
// SQLite only: on PostgreSQL every step would be written around its round trips. Not part of
// the product.
import { hash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import type { FastifyReply } from 'fastify';
import { pino } from 'pino';

const db = new SQLite(process.env.DATABASE_URL ?? '');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');

const keyRow = db.prepare<[string], { id: number; account_id: number; revoked_at: string | null; disabled_at: string | null }>(
  'select api_keys.id, api_keys.account_id, api_keys.revoked_at, accounts.disabled_at from api_keys join accounts on accounts.id = api_keys.account_id where api_keys.key_hash = +?',
);
interface Versions {
  pets: string | null;
  orders: string | null;
  messages: string | null;
  standing: string | null;
}
const versionsRow = db.prepare<[string, string, number], Versions>(
  `select (select version from table_versions where name = 'pets') as pets,
     (select version from table_versions where name = 'orders:' || +?) as orders,
     (select version from table_versions where name = 'messages:' || +?) as messages,
     (select case when api_keys.revoked_at is not null then 'revoked' when accounts.disabled_at is not null then 'disabled' else 'usable' end
        from api_keys join accounts on accounts.id = api_keys.account_id where api_keys.id = +?) as standing`,
);
const page = db.prepare<[number, number], object>(
  'select id, name, category_id as categoryId, status from pets where id > +? order by id limit +?',
);
const pageOf = db.prepare<[string, number, number], object>(
  'select id, name, category_id as categoryId, status from pets where status = +? and id > +? order by id limit +?',
);
const others = db.prepare('pragma data_version').pluck();
const own = db.prepare('select total_changes()').pluck();
const touch = db.prepare<[string, number]>('update api_keys set last_used_at = +? where id = +?');

// Other connections' commits, looked for every 250 ms; this connection's own, at once.
let othersSeen = others.get() as number;
setInterval(() => (othersSeen = others.get() as number), 250).unref();

interface Caller {
  accountId: number;
  keyId: number;
  version: string;
  expires: number;
}
const callers = new Map<string, Caller>();
const used = new Map<number, number>();
setInterval(() => {
  const batch = [...used];
  used.clear();
  db.transaction(() => {
    for (const [id, at] of batch) touch.run(new Date(at).toISOString(), id);
  })();
}, 10_000).unref();

// REST_BY_HAND_LEAN=1 leaves out the rate limit and the access line, as the project's row with both off.
const lean = process.env.REST_BY_HAND_LEAN === '1';
const LIMIT = 1_000_000;
const windows = new Map<number, { used: number; resets: number }>();

let stamp = '';
const versionsSeen = new Map<string, Versions>();
let lastTagText = '';
let lastTag = '';

// sonic-boom, as pino makes it.
const out = pino.destination({ dest: 1, sync: false });
let lines: string[] = [];
let length = 0;
let timer: NodeJS.Timeout | null = null;
function flush(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  if (lines.length > 0) out.write(lines.join(''));
  lines = [];
  length = 0;
}
const head = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const KEY = /^Bearer (psk_[A-Za-z0-9]{40})$/;
const STATUSES = new Set(['available', 'pending', 'sold']);

function refuse(reply: FastifyReply, status: number, code: string, message: string): string {
  reply.code(status).header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify({ code, message, status });
}

declare module 'fastify' {
  interface FastifyRequest {
    started: number;
    accountId: number | null;
    keyId: number | null;
  }
}

/** Counts the request in its key's window and says the budget in two headers: whether it is spent. */
function spent(reply: FastifyReply, keyId: number, now: number): boolean {
  let window = windows.get(keyId);
  if (!window || window.resets <= now) windows.set(keyId, (window = { used: 0, resets: now + 60_000 }));
  window.used += 1;
  const left = Math.max(0, LIMIT - window.used);
  reply
    .header('ratelimit', `"per-key";r=${left};t=${Math.ceil((window.resets - now) / 1000)}`)
    .header('ratelimit-policy', `"per-key";q=${LIMIT};w=60`);
  return window.used > LIMIT;
}

const app = Fastify({
  logger: false,
  requestIdHeader: false,
  genReqId: (req: IncomingMessage) => {
    const incoming = req.headers['x-request-id'];
    return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  },
});
app.server.keepAliveTimeout = 72_000;
app.decorateRequest('started', 0);
app.decorateRequest('accountId', null);
app.decorateRequest('keyId', null);

app.get('/v1/pets', (request, reply) => {
  request.started = performance.now();
  reply.header('x-content-type-options', 'nosniff').header('x-request-id', request.id);
  if (request.headers.host === undefined) return refuse(reply, 400, 'BAD_REQUEST', 'A Host header is required.');

  const match = KEY.exec(request.headers.authorization ?? '');
  if (!match?.[1]) {
    reply.header('www-authenticate', 'Bearer');
    return refuse(reply, 401, 'UNAUTHORIZED', 'A valid API key is required.');
  }
  const slot = hash('sha256', match[1], 'base64');
  const version = `${othersSeen}:${own.get() as number}`;
  const now = Date.now();
  let caller = callers.get(slot);
  if (!caller || caller.version !== version || caller.expires < now) {
    const row = keyRow.get(Buffer.from(slot, 'base64').toString('hex'));
    if (!row || row.revoked_at !== null || row.disabled_at !== null) {
      reply.header('www-authenticate', 'Bearer error="invalid_token"');
      return refuse(reply, 401, 'UNAUTHORIZED', 'A valid API key is required.');
    }
    caller = { accountId: row.account_id, keyId: row.id, version, expires: now + 60_000 };
    callers.set(slot, caller);
  }
  request.accountId = caller.accountId;
  request.keyId = caller.keyId;
  used.set(caller.keyId, now);

  if (!lean && spent(reply, caller.keyId, now)) return refuse(reply, 429, 'RATE_LIMITED', 'Too many requests.');

  const query = request.query as Record<string, string | undefined>;
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return refuse(reply, 400, 'VALIDATION_FAILED', 'limit must be 1 to 100.');
  const status = query.status;
  if (status !== undefined && !STATUSES.has(status)) return refuse(reply, 400, 'VALIDATION_FAILED', 'status is not one of the three.');
  let after = 0;
  if (query.cursor !== undefined) {
    const text = /^pets:(\d+)$/.exec(Buffer.from(query.cursor, 'base64url').toString('utf8'));
    after = Number(text?.[1]);
    if (!text || Buffer.from(`pets:${after}`).toString('base64url') !== query.cursor) {
      return refuse(reply, 400, 'INVALID_CURSOR', 'The cursor is not one this list gave.');
    }
  }

  const now2 = `${others.get() as number}:${own.get() as number}`;
  if (now2 !== stamp) {
    stamp = now2;
    versionsSeen.clear();
  }
  const account = String(caller.accountId);
  const seenAs = `${account}:${caller.keyId}`;
  let versions = versionsSeen.get(seenAs);
  if (!versions)
    versionsSeen.set(
      seenAs,
      (versions = versionsRow.get(account, account, caller.keyId) ?? { pets: null, orders: null, messages: null, standing: null }),
    );
  if (versions.standing !== 'usable') {
    callers.delete(slot);
    return refuse(reply, 401, 'UNAUTHORIZED', 'A valid API key is required.');
  }
  const tagText = `${request.url}\n${account}\n${versions.pets}`;
  if (tagText !== lastTagText) {
    lastTagText = tagText;
    lastTag = `W/"${hash('sha1', tagText, 'base64url').slice(0, 22)}"`;
  }
  reply.header('cache-control', 'private, no-cache').header('etag', lastTag).header('vary', 'Authorization');
  const ifNoneMatch = request.headers['if-none-match'];
  if (
    ifNoneMatch !== undefined &&
    ifNoneMatch
      .replace(/W\//g, '')
      .split(/\s*,\s*/)
      .includes(lastTag.slice(2))
  ) {
    reply.code(304);
    return '';
  }

  const rows = (status === undefined ? page.all(after, limit + 1) : pageOf.all(status, after, limit + 1)) as { id: number }[];
  if (rows.length > limit) {
    rows.length = limit;
    const cursor = Buffer.from(`pets:${rows[limit - 1]?.id}`).toString('base64url');
    const rest = status === undefined ? '' : `&status=${status}`;
    reply.header('link', `</v1/pets?limit=${limit}${rest}&cursor=${cursor}>; rel="next"`);
  }
  reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(rows);
});

// The access line: pino's fields in pino's order, batched 8 KiB or 100 ms at a time.
app.addHook('onResponse', (request, reply, done) => {
  if (lean) return done();
  const ms = Math.round((performance.now() - request.started) * 10) / 10;
  const who = request.accountId === null ? '' : `,"accountId":${request.accountId},"keyId":${request.keyId}`;
  const line = `{"level":30,"time":${Date.now()}${head},"requestId":${JSON.stringify(request.id)},"method":"${request.method}","url":${JSON.stringify(request.url)},"status":${reply.statusCode},"ms":${ms},"ip":${JSON.stringify(request.ip)}${who},"msg":"request"}\n`;
  lines.push(line);
  length += line.length;
  if (length >= 8_192) flush();
  else if (!timer) {
    timer = setTimeout(flush, 100);
    timer.unref();
  }
  done();
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
