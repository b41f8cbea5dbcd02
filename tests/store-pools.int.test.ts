// The console's own PostgreSQL stores (audit trail, trends) when the server ends their idle
// sessions (a restart, pg_terminate_backend, a proxy's cut): the pool's 'error' is logged, never
// an uncaught exception that ends the process, and the next call opens a new session.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAuditStore } from '@/lib/audit/postgres';
import { ZAuditQuery } from '@/lib/audit/types';
import { createPostgresTrendStore } from '@/lib/trends/store-postgres';
import { escapedDuring } from '@/tests/support/hostile';
import { pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';

const schema = `pools_${randomBytes(4).toString('hex')}`;
const ok = await pgAvailable();

beforeAll(async () => {
  if (ok) await sqlAdmin(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  if (ok) await sqlAdmin(`DROP SCHEMA ${schema} CASCADE`);
});

/** Ends every session of `app` and returns how many there were. */
async function terminate(app: string): Promise<number> {
  const rows = await sqlAdmin<{ t: boolean }>('SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity WHERE application_name = $1', [
    app,
  ]);
  return rows.length;
}

describe.skipIf(!ok)("the console's own PostgreSQL stores survive their sessions being terminated", () => {
  it('audit trail: the idle session killed by the server is logged, nothing escapes, the next read works', async () => {
    const app = `audit-kill-${randomBytes(3).toString('hex')}`;
    const store = createPostgresAuditStore(`${searchPathUrl(schema)}&application_name=${app}`);
    try {
      await store.list(ZAuditQuery.parse({}));
      const escaped = await escapedDuring(async () => {
        expect(await terminate(app)).toBeGreaterThan(0);
      });
      expect(escaped).toEqual([]);
      expect((await store.list(ZAuditQuery.parse({}))).entries).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('trends: the same', async () => {
    const app = `trends-kill-${randomBytes(3).toString('hex')}`;
    const store = createPostgresTrendStore(`${searchPathUrl(schema)}&application_name=${app}`);
    try {
      expect(await store.leaseHolder()).toBeNull();
      const escaped = await escapedDuring(async () => {
        expect(await terminate(app)).toBeGreaterThan(0);
      });
      expect(escaped).toEqual([]);
      expect(await store.leaseHolder()).toBeNull();
    } finally {
      await store.close();
    }
  });
});
