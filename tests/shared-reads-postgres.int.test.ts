// Shared reads on a real PostgreSQL broker (potatoq's tables made by the real `potatoq migrate`,
// in a database of the test's own so the server's transaction count is the console's alone):
// many concurrent identical reads cost the broker what one costs, and a replay is seen at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { countedDatabase, type CountedDatabase } from '@/tests/support/counted-database';
import { messageSql, migratedSchema, pgAvailable, tableOf, type PgTarget } from '@/tests/support/postgres';

// Shared reads are off for the other suites (vitest.config.ts); on here, long enough that the
// statistics' settling (about a second per count) stays inside one reuse window.
process.env.POTATOQ_CONSOLE_READ_CACHE_MS = '4000';

const up = await pgAvailable();
let db: CountedDatabase;
let t: PgTarget;
const B = 'sharedpg';

async function sql(text: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

const service = () => import('@/lib/brokers/service');
const deadQuery = async () => (await import('@/lib/brokers/schema')).ZDeadListQuery.parse({ limit: 50 });
/** What the dead page and the overview poll, once. */
async function poll() {
  const s = await service();
  await Promise.all([s.overview(B), s.listDead(B, await deadQuery())]);
}
/** Transactions the broker ran for `run`: the adapter's connections are closed before and
 *  after (a backend reports its counts as it exits), and the shared answers forgotten. */
async function cost(run: () => Promise<unknown>): Promise<number> {
  const { resetAdapters } = await import('@/lib/brokers/registry');
  const { forgetReads } = await import('@/lib/brokers/shared-reads');
  forgetReads(B);
  await resetAdapters();
  const before = await db.settledTransactions();
  await run();
  await resetAdapters();
  return (await db.settledTransactions()) - before;
}
/** The least of two counts in a row: PostgreSQL's autovacuum visits a database with activity
 *  once a minute (autovacuum_naptime), and its worker's transactions count in the database's
 *  own (measured: 4 at the first visit after a table was made and filled, 2 at idle ones), so
 *  now and then one window holds a few that are not the console's; two windows seconds apart
 *  cannot both hold a visit. */
async function leastCost(run: () => Promise<unknown>): Promise<number> {
  return Math.min(await cost(run), await cost(run));
}

describe.skipIf(!up)('shared reads on PostgreSQL', () => {
  beforeAll(async () => {
    db = await countedDatabase();
    t = migratedSchema('potatoq_', {}, db.url);
    await sql(
      `INSERT INTO ${tableOf(t, 'dead')} (id, queue, task, reason, died_at, payload)
       SELECT 'sr-' || i, 'sr-q', 'ct.bulk', 'ValueError: boom', now() - make_interval(secs => i), ${messageSql(`'sr-' || i`, 'ct.bulk', "'sr-q'", 'i::text')}
       FROM generate_series(1, 300) AS i`,
    );
    process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: B, name: 'Shared PG', url: db.url, ...t.options }]);
    await poll(); // the adapter's pool and its first probes, outside every count
  }, 120_000);
  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    await db?.drop();
  });

  it('answers 25 concurrent viewers polling the overview and the dead list with one set of broker reads', async () => {
    const { forgetReads } = await import('@/lib/brokers/shared-reads');
    // A first poll pays the new adapter's probes too: `warm` is what each further one costs.
    const one = await leastCost(poll);
    const warm = (await leastCost(async () => (await poll(), forgetReads(B), await poll()))) - one;
    const many = await leastCost(() => Promise.all(Array.from({ length: 25 }, poll)));
    // The count does count each read: the same reads past the sharing cost 25 times as much.
    const { getAdapter } = await import('@/lib/brokers/registry');
    const q = await deadQuery();
    const unshared = await cost(() =>
      Promise.all(Array.from({ length: 25 }, () => Promise.all([getAdapter(B).overview(), getAdapter(B).listDead(q)]))),
    );
    expect(warm).toBeGreaterThan(0);
    expect(many).toBe(one);
    expect(unshared).toBeGreaterThanOrEqual(one + 24 * warm);
  }, 120_000);

  it("forgets the broker's shared answers when a replay ends: the next read is the broker's", async () => {
    const s = await service();
    const q = await deadQuery();
    const first = await s.listDead(B, q);
    const [gone, replayed] = first.items.map((d) => d.id);
    expect(gone && replayed).toBeTruthy();
    // A change made behind the console's back is not seen within the reuse time...
    await sql(`DELETE FROM ${tableOf(t, 'dead')} WHERE id = $1`, [gone]);
    expect((await s.listDead(B, q)).items.map((d) => d.id)).toContain(gone);
    // ...but a replay through the console forgets what was shared: both changes show at once.
    const r = await s.replayDead(B, [replayed!]);
    expect(r.succeeded.map((o) => o.id)).toEqual([replayed]);
    const after = (await s.listDead(B, q)).items.map((d) => d.id);
    expect(after).not.toContain(replayed);
    expect(after).not.toContain(gone);
    const jobs = await sql(`SELECT id FROM ${tableOf(t, 'jobs')} WHERE id = $1`, [replayed]);
    expect(jobs).toHaveLength(1);
  }, 120_000);
});
