// PostGraphile 4 (its own node:http server over the floor's PostgreSQL database), as its docs set
// it up for production, behind the floor's key check (peer-schema.ts's, without its store: it
// asks PostgreSQL itself). It answers `allPets`, the table's own connection, which the bench
// asks for under the project's name. Not part of the product.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const middleware = postgraphile(pool, 'public', {
  graphiql: false,
  disableQueryLog: true,
  enableQueryBatching: false,
  disableDefaultMutations: true,
  retryOnInitFail: false,
  setofFunctionsContainNulls: false,
  ignoreRBAC: true,
});

async function authorized(header: string | undefined): Promise<boolean> {
  const match = /^Bearer (psk_[A-Za-z0-9]{40})$/.exec(header ?? '');
  if (!match?.[1]) return false;
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const { rows } = await pool.query<{ revoked_at: string | null }>({
    name: 'key',
    text: 'select revoked_at from api_keys where key_hash = $1',
    values: [hash],
  });
  return rows[0] !== undefined && rows[0].revoked_at === null;
}

createServer((req, res) => {
  void authorized(req.headers.authorization).then((ok) => {
    // A request the load generator gave up on while its key was checked (the end of a round) has nothing left to read.
    if (req.destroyed) return;
    if (ok) return middleware(req, res);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ errors: [{ message: 'A valid API key is required.' }] }));
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
