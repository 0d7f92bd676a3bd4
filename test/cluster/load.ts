import type pg from 'pg';
import type { Answer, Client } from './client.ts';
import { nextPath, pause, retryable } from './client.ts';

/** What the load did, as its clients saw it: the ground truth the checks compare the cluster with. */
export interface LoadRecord {
  /** Creates answered 201, by the unique name each was sent with. */
  created: Map<string, number>;
  /** Plain creates with no answer: they may or may not have happened. */
  unanswered: string[];
  keyedRetries: number;
  replays: number;
  /** A replay that named another pet than the first answer: a duplicate. */
  replayMismatches: number;
  /** Per pet: order answers 201, and 409 PET_NOT_AVAILABLE. */
  orders: Map<number, { placed: number; taken: number }>;
  /** Messages answered 201, by their unique text. */
  messages: Map<string, string>;
  walks: { done: number; checked: number; skipped: number[] };
}

export function emptyRecord(): LoadRecord {
  return {
    created: new Map(),
    unanswered: [],
    keyedRetries: 0,
    replays: 0,
    replayMismatches: 0,
    orders: new Map(),
    messages: new Map(),
    walks: { done: 0, checked: 0, skipped: [] },
  };
}

export interface Load {
  client: Client;
  origin: string;
  key: string;
  record: LoadRecord;
  running: () => boolean;
}

/** Sends until answered for good, retrying with the same Idempotency-Key (as a careful client does). */
async function untilAnswered(load: Load, send: () => Promise<Answer>): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const answer = await send();
    if (!retryable(answer) || attempt === 20) return answer;
    load.record.keyedRetries++;
    await pause(100);
  }
}

const idOf = (answer: Answer) => (answer.body as { id: number }).id;

/** Creates pets with an Idempotency-Key, and now and then sends one again as if its answer were lost. */
export async function createKeyed(load: Load, worker: string): Promise<void> {
  for (let n = 0; load.running(); n++) {
    const name = `keyed-${worker}-${n}`;
    const send = () =>
      load.client.call(load.origin, 'POST', '/v1/pets', { key: load.key, body: { name, categoryId: 1 }, idempotencyKey: name });
    const answer = await untilAnswered(load, send);
    if (answer.status !== 201) continue;
    load.record.created.set(name, idOf(answer));
    if (n % 4 === 0) {
      const again = await untilAnswered(load, send);
      if (again.headers.get('idempotent-replayed') === 'true') load.record.replays++;
      if (again.status !== 201 || idOf(again) !== idOf(answer)) load.record.replayMismatches++;
    }
  }
}

/** Creates pets with no key: an unanswered one is unknown, and only counted. */
export async function createPlain(load: Load, worker: string): Promise<void> {
  for (let n = 0; load.running(); n++) {
    const name = `plain-${worker}-${n}`;
    const answer = await load.client.call(load.origin, 'POST', '/v1/pets', { key: load.key, body: { name, categoryId: 1 } });
    if (answer.status === 201) load.record.created.set(name, idOf(answer));
    else if (answer.status === 0 || answer.status >= 500) load.record.unanswered.push(name);
  }
}

/** Lists: the first page and the next, on REST and GraphQL. */
export async function read(load: Load): Promise<void> {
  while (load.running()) {
    const first = await load.client.call(load.origin, 'GET', '/v1/pets?limit=20', { key: load.key });
    const next = nextPath(first.headers);
    if (next) await load.client.call(load.origin, 'GET', next, { key: load.key });
    await load.client.call(load.origin, 'POST', '/graphql', {
      key: load.key,
      body: { query: '{ pets(first: 10) { edges { node { id name } } } }' },
    });
  }
}

/** Orders random pets of `petIds`, racing the other orderers for them. */
export async function order(load: Load, petIds: number[], worker: string): Promise<void> {
  for (let n = 0; load.running(); n++) {
    const petId = petIds[Math.floor(Math.random() * petIds.length)] ?? 0;
    const idempotencyKey = n % 2 ? `order-${worker}-${n}` : undefined;
    const send = () => load.client.call(load.origin, 'POST', '/v1/store/orders', { key: load.key, body: { petId }, idempotencyKey });
    const answer = idempotencyKey ? await untilAnswered(load, send) : await send();
    const tally = load.record.orders.get(petId) ?? { placed: 0, taken: 0 };
    if (answer.status === 201 && answer.headers.get('idempotent-replayed') !== 'true') tally.placed++;
    if (answer.status === 409 && (answer.body as { code?: string }).code === 'PET_NOT_AVAILABLE') tally.taken++;
    load.record.orders.set(petId, tally);
  }
}

/** Sends up to `most` messages with the worker's own key (the message quota is per key), half with an Idempotency-Key. */
export async function message(load: Load, worker: string, most: number): Promise<void> {
  for (let n = 0; load.running() && n < most; n++) {
    const text = `hello-${worker}-${n}`;
    const idempotencyKey = n % 2 ? text : undefined;
    const send = () => load.client.call(load.origin, 'POST', '/messages', { key: load.key, body: { message: text }, idempotencyKey });
    const answer = idempotencyKey ? await untilAnswered(load, send) : await send();
    if (answer.status === 201) load.record.messages.set(text, (answer.body as { id: string }).id);
    await pause(400);
  }
}

/**
 * Walks every page by cursor while pets are created. Before each page it notes which pets the
 * database has committed past the cursor; the page must hold each of them up to its last id
 * (the last page: all of them). One missing is a pet skipped.
 */
export async function walk(load: Load, pool: pg.Pool): Promise<void> {
  while (load.running()) {
    let path: string | null = '/v1/pets?limit=100';
    let after = 0;
    while (path) {
      const { rows } = await pool.query<{ id: string }>('select id from pets where id > $1', [after]);
      const committed = rows.map((r) => Number(r.id));
      const answer = await load.client.call(load.origin, 'GET', path, { key: load.key });
      if (answer.status !== 200) break;
      const page = (answer.body as { id: number }[]).map((p) => p.id);
      path = nextPath(answer.headers);
      const last = path ? (page.at(-1) ?? after) : Number.POSITIVE_INFINITY;
      const seen = new Set(page);
      for (const id of committed.filter((id) => id <= last)) {
        load.record.walks.checked++;
        if (!seen.has(id)) load.record.walks.skipped.push(id);
      }
      after = page.at(-1) ?? after;
    }
    if (!path) load.record.walks.done++;
  }
}
