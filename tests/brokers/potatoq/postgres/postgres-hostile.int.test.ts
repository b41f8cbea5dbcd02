// What a PostgreSQL server (or something in its place) can do to the console's pool, for real:
// its session terminated in the middle of a query (pg_terminate_backend, as a restart or an
// administrator does), a "server" that answers with bytes that are not the PostgreSQL protocol,
// one that closes at once. Each call fails as a typed console error, nothing escapes to the
// process, another broker keeps answering, and the next call after a kill opens a new session.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { escapedDuring, hostileServer, brokerFailure as failure } from '@/tests/support/hostile';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { dropSchema, migratedSchema, PG_URL, pgAvailable, sqlAdmin, tableOf, type PgTarget } from '@/tests/support/postgres';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await pgAvailable();

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});
function adapter(options: Record<string, unknown>, url = PG_URL): BrokerAdapter {
  const a = createPostgresAdapter({ id: `pgh-${randomBytes(3).toString('hex')}`, name: 'pg', url, readOnly: false, options });
  cleanups.push(() => a.close());
  return a;
}
function schema(): PgTarget {
  const t = migratedSchema();
  cleanups.push(() => dropSchema(t.schema));
  return t;
}

describe.skipIf(!available)('PostgreSQL: a hostile server', () => {
  it('a session terminated mid-query fails that call; nothing escapes; another broker and the next call answer', async () => {
    const t = schema();
    // Timeouts far beyond the test's few polls, so the kill, not a timeout, ends the wait.
    const a = adapter({ ...t.options, statementTimeoutMs: 120_000, lockTimeoutMs: 120_000 });
    const other = adapter(schema().options);
    await a.overview();
    // Hold the jobs table so the next overview waits inside its query, then end its session.
    const locker = new pg.Client({ connectionString: PG_URL });
    await locker.connect();
    cleanups.push(() => locker.end());
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${tableOf(t, 'jobs')} IN ACCESS EXCLUSIVE MODE`);
    const escaped = await escapedDuring(async () => {
      let settled = false;
      // Handled from the start: a rejection left unhandled while the loop runs would count as escaped.
      const failed = failure(a.overview().finally(() => (settled = true)));
      // End every session of this broker that waits on the lock, until the call gives up.
      let ended = 0;
      while (!settled) {
        const rows = await sqlAdmin<{ pid: number }>(
          "SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [`potatoq-console ${a.id}`],
        );
        ended += rows.length;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(ended).toBeGreaterThan(0);
      const e = await failed;
      expect(e.message).toMatch(/57P01/);
      expect(e.message).not.toMatch(/postgres(ql)?:\/\//);
      expect((await other.overview()).queues).toEqual(expect.any(Array));
    });
    expect(escaped).toEqual([]);
    await locker.query('ROLLBACK');
    expect((await a.overview()).queues).toEqual(expect.any(Array));
  });

  for (const [name, bytes, close] of [
    ['answers with an HTML page', Buffer.from('HTTP/1.1 400 Bad Request\r\ncontent-type: text/html\r\n\r\n<html>no</html>'), true],
    ['answers garbage and closes', Buffer.from([0x52, 0xff, 0xff, 0xff, 0xff, 0x00]), true],
    ['closes the connection at once', Buffer.alloc(0), true],
  ] as const) {
    it(`a server that ${name} fails the call as a console error, and nothing escapes`, async () => {
      const peer = await hostileServer(bytes, close);
      cleanups.push(() => peer.stop());
      const a = adapter({ schema: 'public' }, `postgresql://u:secret-pw@127.0.0.1:${peer.port}/x?sslmode=disable`);
      const escaped = await escapedDuring(async () => {
        const e = await failure(a.overview());
        expect(e.message).not.toContain('secret-pw');
      });
      expect(escaped).toEqual([]);
    });
  }
});
