import { appVersion } from '../../src/config/version.ts';
import { MIN_RENDER_INTERVAL_MS } from '../../src/telemetry/metrics-listener.ts';
import { RUNS_BEFORE_LABEL } from '../../src/telemetry/operation-names.ts';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../../src/config/load-config.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { has, total } from '../helpers/exposition.ts';
import { graphql } from '../helpers/graphql.ts';
import { subscribe } from '../helpers/sse-client.ts';
import { ENGINE } from '../helpers/test-database.ts';

const REQUESTS = 'http_server_request_duration_seconds_count';
const DB_SYSTEM = ENGINE === 'postgres' ? 'postgresql' : 'sqlite';

describe('metrics (METRICS_PORT set)', () => {
  it('time every request by method, route template (never the raw path), status and face', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 1 } });
    for (const id of [1, 1, 2]) await t.call({ url: `/v1/pets/${id}` });
    await t.call({ url: '/v1/no-such-route' });
    await graphql(t, 'query ListPets { pets(first: 1) { nodes { id } } }');
    const text = await t.scrape();
    const rest = { face: 'rest', http_request_method: 'GET', http_route: '/v1/pets/{petId}' };
    expect(total(text, REQUESTS, { ...rest, http_response_status_code: '200' })).toBe(2);
    expect(total(text, REQUESTS, { ...rest, http_response_status_code: '404' })).toBe(1);
    expect(total(text, REQUESTS, { http_route: '/v1/pets', http_request_method: 'POST', http_response_status_code: '201' })).toBe(1);
    expect(
      total(text, REQUESTS, { face: 'graphql', http_route: '/graphql', http_request_method: 'POST', http_response_status_code: '200' }),
    ).toBe(1);
    // Unknown paths share one series: a client cannot grow the label set.
    expect(total(text, REQUESTS, { http_route: '', http_response_status_code: '404' })).toBe(1);
    expect(text).not.toMatch(/\/v1\/pets\/1"|no-such-route/);
  });

  it('count GraphQL operations by type and name: a name earns its label by being run, anonymous and the rest folded', async ({
    makeApp,
  }) => {
    // Operations are counted where they run: a repeat answered from the response cache is not run.
    const t = await makeApp({ METRICS_PORT: '0', METRICS_OPERATION_NAMES: '2', RESPONSE_CACHE: 'false' });
    const run = (name: string, times: number) =>
      Promise.all(Array.from({ length: times }, () => graphql(t, `query ${name} { pets(first: 1) { totalCount } }`)));
    // A: its first runs count as (other) until it has run RUNS_BEFORE_LABEL times; then it has its own.
    await run('A', RUNS_BEFORE_LABEL + 2);
    // B earns the second label; C comes after the limit.
    await run('B', RUNS_BEFORE_LABEL);
    await run('C', RUNS_BEFORE_LABEL);
    await graphql(t, '{ pets(first: 1) { totalCount } }');
    await graphql(t, 'mutation Add { createPet(input: { name: "Tom", categoryId: 2 }) { id } }');
    const text = await t.scrape();
    const ops = 'graphql_server_operation_duration_seconds_count';
    expect(total(text, ops, { graphql_operation_type: 'query', graphql_operation_name: 'A', outcome: 'success' })).toBe(3);
    expect(total(text, ops, { graphql_operation_name: 'B' })).toBe(1);
    expect(has(text, ops, { graphql_operation_name: 'C' })).toBe(false);
    const early = 2 * (RUNS_BEFORE_LABEL - 1);
    expect(total(text, ops, { graphql_operation_type: 'query', graphql_operation_name: '(other)' })).toBe(early + RUNS_BEFORE_LABEL);
    expect(total(text, ops, { graphql_operation_name: '(anonymous)' })).toBe(1);
    expect(total(text, ops, { graphql_operation_type: 'mutation', graphql_operation_name: '(other)' })).toBe(1);
  });

  it('render at most once per interval however many scrapes arrive, so a burst of them leaves the API its event loop', async ({
    makeApp,
  }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    await t.scrape();
    const started = performance.now();
    const burst = await Promise.all(Array.from({ length: 50 }, () => t.scrape()));
    const elapsed = performance.now() - started;
    // Each rendering reads the process's CPU time, so copies of one rendering are equal and two renderings differ.
    expect(burst[0]).toMatch(/^process_cpu_seconds_total /m);
    expect(new Set(burst).size).toBeLessThanOrEqual(Math.floor(elapsed / MIN_RENDER_INTERVAL_MS) + 1);
    // Each scrape still sees what happened before it.
    await t.call({ url: '/v1/pets' });
    expect(await t.scrape()).toMatch(/http_server_request_duration_seconds_count\{[^}]*http_route="\/v1\/pets"[^}]*\} 1$/m);
  });

  it('keep the labels for the operations a deployment runs when a client floods made-up names', async ({ makeApp, tmp }) => {
    const path = join(tmp, 'persisted-documents.json');
    const trusted = 'query FromTheManifest { pets(first: 1) { totalCount } }';
    writeFileSync(path, JSON.stringify({ [`sha256:${createHash('sha256').update(trusted).digest('hex')}`]: trusted }));
    const t = await makeApp({
      METRICS_PORT: '0',
      METRICS_OPERATION_NAMES: '3',
      RESPONSE_CACHE: 'false',
      RATE_LIMIT_PER_MINUTE: '0',
      GRAPHQL_TRUSTED_DOCUMENTS: path,
    });
    // 100 junk names, each sent twice: none takes a label.
    for (let i = 0; i < 100; i++) for (let n = 0; n < 2; n++) await graphql(t, `query Junk${i} { __typename }`);
    await graphql(t, trusted);
    for (let n = 0; n < RUNS_BEFORE_LABEL; n++) await graphql(t, 'query Real { pets(first: 1) { totalCount } }');
    const text = await t.scrape();
    const ops = 'graphql_server_operation_duration_seconds_count';
    // The manifest's name from its first run; the real one once it has run enough.
    expect(total(text, ops, { graphql_operation_name: 'FromTheManifest' })).toBe(1);
    expect(total(text, ops, { graphql_operation_name: 'Real' })).toBe(1);
    expect(text).not.toMatch(/graphql_operation_name="Junk/);
  });

  it('label a reloaded manifest’s new operations from their first run, as the manifest’s at start', async ({ makeApp, tmp }) => {
    const path = join(tmp, 'persisted-documents.json');
    const manifest = (texts: string[]) =>
      writeFileSync(
        path,
        JSON.stringify(Object.fromEntries(texts.map((text) => [`sha256:${createHash('sha256').update(text).digest('hex')}`, text]))),
      );
    const first = 'query AtStart { pets(first: 1) { totalCount } }';
    const added = 'query AddedLater { pets(first: 2) { totalCount } }';
    manifest([first]);
    const t = await makeApp({ METRICS_PORT: '0', RESPONSE_CACHE: 'false', RATE_LIMIT_PER_MINUTE: '0', GRAPHQL_TRUSTED_DOCUMENTS: path });
    manifest([first, added]);
    expect(t.app.reloadManifest()).toBe(true);
    await graphql(t, added);
    const text = await t.scrape();
    const ops = 'graphql_server_operation_duration_seconds_count';
    expect(total(text, ops, { graphql_operation_name: 'AddedLater' })).toBe(1);
    expect(has(text, ops, { graphql_operation_name: '(other)' })).toBe(false);
  });

  it('count errors by catalogue code on both faces under the same labels, and 429s by budget', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0', RATE_LIMIT_PER_MINUTE: '8' });
    await t.app.inject({ url: '/v1/pets' });
    await t.call({ url: '/v1/pets/999' });
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: '' } });
    await graphql(t, '{ pet(id: 999) { id } }');
    await graphql(t, '{ pets { nope } }');
    await graphql(t, '{ pets(first: ');
    await graphql(t, '{ pets { totalCount } }', undefined, {});
    // Yoga's whole path (a GET), where a result passes both the pipeline and result processing: once.
    await t.call({ url: '/graphql?query=%7B%20pets%20%7B%20nope%20%7D%20%7D' });
    // 6 keyed requests above, 6 here: the budget of 8 refuses the last 4.
    for (let i = 0; i < 6; i++) await t.call({ url: '/v1/pets' });
    const text = await t.scrape();
    const errors = 'petstore_errors_total';
    expect(total(text, errors, { face: 'rest', code: 'UNAUTHORIZED' })).toBe(1);
    expect(total(text, errors, { face: 'rest', code: 'PET_NOT_FOUND' })).toBe(1);
    expect(total(text, errors, { face: 'rest', code: 'VALIDATION_FAILED' })).toBe(1);
    expect(total(text, errors, { face: 'graphql', code: 'PET_NOT_FOUND' })).toBe(1);
    expect(total(text, errors, { face: 'graphql', code: 'VALIDATION_FAILED' })).toBe(2);
    expect(total(text, errors, { face: 'graphql', code: 'GRAPHQL_PARSE_FAILED' })).toBe(1);
    expect(total(text, errors, { face: 'graphql', code: 'UNAUTHORIZED' })).toBe(1);
    expect(total(text, 'petstore_rate_limit_refusals_total', { budget: 'per-key' })).toBe(4);
    expect(total(text, errors, { face: 'rest', code: 'RATE_LIMITED' })).toBe(4);
  });

  it('count GraphQL refusals made before execution (trusted documents) like any other error', async ({ makeApp, tmp }) => {
    const manifest = join(tmp, 'manifest.json');
    const known = 'query Known { pets(first: 1) { totalCount } }';
    const id = `sha256:${createHash('sha256').update(known).digest('hex')}`;
    writeFileSync(manifest, JSON.stringify({ [id]: known }));
    const t = await makeApp({ METRICS_PORT: '0', NODE_ENV: 'production', GRAPHQL_TRUSTED_DOCUMENTS: manifest });
    const post = (payload: Record<string, unknown>) =>
      t.call({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload });
    expect((await post({ documentId: 'sha256:nope' })).statusCode).toBe(400);
    expect((await post({ query: '{ pets { totalCount } }' })).statusCode).toBe(400);
    expect((await post({ documentId: id })).statusCode).toBe(200);
    const text = await t.scrape();
    expect(total(text, 'petstore_errors_total', { face: 'graphql', code: 'UNKNOWN_DOCUMENT' })).toBe(1);
    expect(total(text, 'petstore_errors_total', { face: 'graphql', code: 'TRUSTED_DOCUMENTS_ONLY' })).toBe(1);
    expect(total(text, 'graphql_server_operation_duration_seconds_count', { graphql_operation_name: 'Known' })).toBe(1);
  });

  it('time statements by kind, count key-cache hits and misses, and read the outbox and open subscriptions when scraped', async ({
    makeApp,
  }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    const firstSentAt = Date.now();
    await t.call({ method: 'POST', url: '/messages', payload: { message: 'hi' } });
    await t.call({ method: 'POST', url: '/messages', payload: { message: 'there' } });
    // A read after a read: the key's verdict comes from the cache (a write, on SQLite, ends its trust).
    await t.call({ url: '/v1/pets' });
    await t.call({ url: '/v1/pets' });
    const sub = await subscribe(await t.listen(), 'subscription { petCreated { id } }', {}, t.auth);
    const text = await t.scrape();
    sub.close();
    const statements = 'db_client_operation_duration_seconds_count';
    expect(total(text, statements, { db_system_name: DB_SYSTEM, db_operation_name: 'INSERT', outcome: 'success' })).toBeGreaterThanOrEqual(
      2,
    );
    expect(total(text, statements, { db_system_name: DB_SYSTEM, db_operation_name: 'SELECT' })).toBeGreaterThanOrEqual(1);
    expect(total(text, 'petstore_api_key_cache_lookups_total', { result: 'miss' })).toBeGreaterThanOrEqual(1);
    expect(total(text, 'petstore_api_key_cache_lookups_total', { result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(total(text, 'petstore_messages_queued')).toBe(2);
    // The oldest waits since it was sent: no longer than the test has run since (whole seconds, rounded up).
    expect(has(text, 'petstore_messages_oldest_queued_age_seconds')).toBe(true);
    expect(total(text, 'petstore_messages_oldest_queued_age_seconds')).toBeLessThanOrEqual(
      Math.ceil((Date.now() - firstSentAt) / 1000) + 1,
    );
    expect(total(text, 'petstore_subscriptions_open')).toBe(1);
    expect(
      total(text, 'petstore_build_info', { db_system_name: DB_SYSTEM, version: appVersion().version, revision: appVersion().revision }),
    ).toBe(1);
    expect(has(await t.scrape(), 'nodejs_gc_duration_seconds_count')).toBe(false);
    for (const name of [
      'process_resident_memory_bytes',
      'process_open_fds',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(has(text, name), name).toBe(true);
    }
    expect(has(text, 'db_client_connection_count', { db_client_connection_state: 'idle' })).toBe(ENGINE === 'postgres');
    expect(has(text, 'petstore_sqlite_lock_wait_seconds_total')).toBe(true);
  });

  it('leave subscription streams out of the request latencies, also one the server ends', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    const second = (await t.call({ method: 'POST', url: '/v1/keys', payload: {} })).json<{ id: number; key: string }>();
    const sub = await subscribe(await t.listen(), 'subscription { petCreated { id } }', {}, { authorization: `Bearer ${second.key}` });
    await expect.poll(async () => total(await t.scrape(), 'petstore_subscriptions_open')).toBe(1);
    // Revoking the key ends its stream from the server's side: the answer completes normally.
    expect((await t.call({ method: 'DELETE', url: `/v1/keys/${second.id}` })).statusCode).toBe(200);
    await expect.poll(async () => total(await t.scrape(), 'petstore_subscriptions_open')).toBe(0);
    await sub.next();
    sub.close();
    await t.call({ url: '/graphql?query=%7B%20pets%20%7B%20totalCount%20%7D%20%7D' });
    await expect.poll(async () => total(await t.scrape(), REQUESTS, { face: 'graphql', http_request_method: 'GET' })).toBe(1);
    expect(total(await t.scrape(), REQUESTS, { face: 'graphql', http_request_method: 'POST' })).toBe(0);
  });

  it('time garbage collections with METRICS_GC=true (off by default, for its cost)', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0', METRICS_GC: 'true' });
    // A collection forced, not hoped for: how much garbage triggers one depends on the heap's sizing.
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    expect(total(await t.scrape(), 'nodejs_gc_duration_seconds_count', { kind: 'major' })).toBeGreaterThan(0);
    const off = await makeApp({ METRICS_PORT: '0' });
    expect(has(await off.scrape(), 'nodejs_gc_duration_seconds_count')).toBe(false);
  });

  it('are served on their own listener only: GET /metrics there, 404 on the public port, 404 and 405 for anything else', async ({
    makeApp,
  }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    const text = await t.scrape();
    expect(text).toMatch(/^# HELP http_server_request_duration_seconds /m);
    const address = t.app.metricsListener?.address();
    const origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
    expect((await fetch(`${origin}/other`)).status).toBe(404);
    expect((await fetch(`${origin}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});

describe('metrics off (METRICS_PORT unset, the default)', () => {
  it('opens no listener and serves nothing at /metrics', async ({ makeApp }) => {
    const t = await makeApp();
    expect(t.app.metricsListener).toBeNull();
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    await expect(t.scrape()).rejects.toThrow(/metrics are off/);
  });

  it('refuses METRICS_PORT equal to PORT, and values out of range, with the setting named', () => {
    expect(() => loadConfig({ PORT: '4000', METRICS_PORT: '4000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT must be an integer from 0 to 65535/);
    expect(() => loadConfig({ METRICS_OPERATION_NAMES: '0' })).toThrow(/METRICS_OPERATION_NAMES must be an integer/);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1', maxOperationNames: 100, gc: false });
  });
});
