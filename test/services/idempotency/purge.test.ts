import { describe, expect, it } from '../../helpers/fixtures.ts';
import { IDEMPOTENCY_TTL_MS, requestFingerprint, startIdempotent } from '../../../src/services/idempotency/index.ts';

// The purge's clock is the `now` each request passes, so this drives it through the service:
// a day and a minute cannot pass in a test, and faking Date would reach other files' apps.
describe('the purge of day-old Idempotency-Keys', () => {
  it('runs at most once a minute, and then forgets every day-old key', async ({ makeApp }) => {
    const t = await makeApp();
    const { id: accountId } = await t.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
    const start = Date.now();
    const write = async (key: string, at: number) => {
      const started = await startIdempotent(t.db, accountId, key, requestFingerprint('POST /v1/pets', { key }), new Date(at));
      if (started.kind !== 'first') throw new Error(`${key} was not new`);
      await started.run.finish({ status: 201, body: '{}', resourcePath: null });
    };
    const kept = async () => (await t.db.selectFrom('idempotency_keys').select('key').orderBy('key').execute()).map((row) => row.key);
    await write('old', start);
    await t.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(start - IDEMPOTENCY_TTL_MS - 1000).toISOString() })
      .execute();
    await write('within-the-minute', start + 30_000);
    expect(await kept()).toEqual(['old', 'within-the-minute']);
    await write('a-minute-on', start + 61_000);
    expect(await kept()).toEqual(['a-minute-on', 'within-the-minute']);
  });
});
