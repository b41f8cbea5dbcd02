// What the REAL QueueFlow server answers when its PostgreSQL goes away (a private server of our
// own, tests/support/private-postgres.ts, so nobody else's database stops): the 5xx bodies the
// console maps to "broker unavailable", and that it serves again once the database is back.
import { afterAll, describe, expect, it } from 'vitest';
import { privatePostgresMissing, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { call, startQueueflow, until } from './support';

const pgMissing = privatePostgresMissing();
if (pgMissing && process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(`cannot run a private PostgreSQL: ${pgMissing}`);
if (pgMissing) console.warn(`\n*** QueueFlow database-outage tests skipped: ${pgMissing} ***\n`);
const pg: PrivatePostgres | null = pgMissing ? null : await startPrivatePostgres();
const s = pg ? startQueueflow(pg.url) : null;

afterAll(() => {
  s?.stop();
  pg?.stop();
});

describe.skipIf(!s)('QueueFlow when its database is down', () => {
  it('answers 503 on /health and 500 "internal server error" on the API, and recovers after a restart', async () => {
    if (!s || !pg) throw new Error('unreachable');
    expect((await call(s, 'GET', '/api/v1/queues')).status).toBe(200);
    pg.restart(); // every pooled connection is cut; the server reconnects on its own
    await until(
      'the API to answer again after a restart',
      async () => (await call(s, 'GET', '/api/v1/queues')).status === 200,
      60_000,
      s.log,
    );

    pg.stop();
    const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
      const t0 = Date.now();
      const r = await f();
      return [r, Date.now() - t0];
    };
    // Both at once: each waits out the pool's acquire timeout (below), so in turn they took 60 s.
    const [[health, healthMs], [list, listMs]] = await Promise.all([
      timed(() => call<{ error: string; timestamp: string }>(s, 'GET', '/health', { token: null })),
      timed(() => call<{ error: string; timestamp: string }>(s, 'GET', '/api/v1/jobs')),
    ]);
    expect(health.status).toBe(503);
    expect(health.body.error).toBe('database unavailable');
    expect(list.status).toBe(500);
    expect(Object.keys(list.body).sort()).toEqual(['error', 'timestamp']);
    expect(list.body.error).toBe('internal server error'); // the detail goes to the server's log only
    // Each answer waits for the pool's acquire timeout first (sqlx's default: 30 s): a caller
    // needs a shorter timeout of its own to report the outage promptly.
    console.log(`QueueFlow with its database down: /health answered 503 after ${healthMs} ms, GET /api/v1/jobs 500 after ${listMs} ms`);
    expect(listMs).toBeGreaterThan(20_000);
    // auth is checked before the database: a bad token is still a 401
    const [unauth, unauthMs] = await timed(() => call(s, 'GET', '/api/v1/jobs', { token: 'nope' }));
    expect(unauth.status).toBe(401);
    expect(unauthMs).toBeLessThan(5_000);
  }, 300_000);
});
