// The statements of the floor (and the Yoga ceiling): the same reads and the same insert the
// project runs, on the engine DATABASE_URL names, with nothing between them and the driver.
// SQLite answers synchronously (cached better-sqlite3 statements); PostgreSQL through a pg
// pool of the project's size, with named statements as the project's driver uses.
// Not part of the product.
import SQLite from 'better-sqlite3';
import pg from 'pg';

export interface Row {
  id: number;
  name: string;
  category_id: number;
  status: string;
}

type Awaitable<T> = T | Promise<T>;

export interface FloorStore {
  findKey(keyHash: string): Awaitable<{ revoked_at: string | null } | undefined>;
  list(afterId: number, limit: number): Awaitable<Row[]>;
  getOne(id: number): Awaitable<Row | undefined>;
  insert(name: string, categoryId: number, status: string, createdAt: string): Awaitable<Row | undefined>;
}

/** Calls `then` with the value, at once when it is not a promise: the SQLite floor stays synchronous. */
export function when<T>(value: Awaitable<T>, then: (value: T) => void): void {
  if (value instanceof Promise) void value.then(then);
  else then(value);
}

const COLUMNS = 'id, name, category_id, status';

function sqliteStore(file: string): FloorStore {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Parameters as the project's dialect writes them (`+?`, src/db/sqlite/sqlite-dialect.ts): a bare
  // `limit ?` makes SQLite 3.54 compile the statement again at every run, and the floor is the
  // fastest way to run these statements, not the way that pays for that.
  const findKey = db.prepare<[string], { revoked_at: string | null }>('select revoked_at from api_keys where key_hash = +?');
  const list = db.prepare<[number, number], Row>(`select ${COLUMNS} from pets where id > +? order by id limit +?`);
  const getOne = db.prepare<[number], Row>(`select ${COLUMNS} from pets where id = +?`);
  const insert = db.prepare<[string, number, string, string], Row>(
    `insert into pets (name, category_id, status, created_at) values (+?, +?, +?, +?) returning ${COLUMNS}`,
  );
  return {
    findKey: (keyHash) => findKey.get(keyHash),
    list: (afterId, limit) => list.all(afterId, limit),
    getOne: (id) => getOne.get(id),
    insert: (...args) => insert.get(...args),
  };
}

function postgresStore(url: string): FloorStore {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text') =>
        oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  const run = async <T extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) =>
    (await pool.query<T>({ name, text, values })).rows;
  return {
    findKey: async (keyHash) =>
      (await run<{ revoked_at: string | null }>('key', 'select revoked_at from api_keys where key_hash = $1', [keyHash]))[0],
    list: (afterId, limit) => run<Row>('list', `select ${COLUMNS} from pets where id > $1 order by id limit $2`, [afterId, limit]),
    getOne: async (id) => (await run<Row>('one', `select ${COLUMNS} from pets where id = $1`, [id]))[0],
    // The project's insert: the id drawn after the table's insert lock, so ids commit in order.
    insert: async (...args) =>
      (
        await run<Row>(
          'insert',
          `insert into pets (id, name, category_id, status, created_at) values ((select nextval(pg_get_serial_sequence('pets', 'id')) from (select pg_advisory_xact_lock(32373, 1)) as id_order), $1, $2, $3, $4) returning ${COLUMNS}`,
          args,
        )
      )[0],
  };
}

export function openFloorStore(url: string): FloorStore {
  return /^postgres(ql)?:\/\//i.test(url) ? postgresStore(url) : sqliteStore(url);
}
