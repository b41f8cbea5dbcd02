// The doctor's grant checks for Simple Durable Jobs, each database with a login the test creates
// with SELECT only (a PostgreSQL role, a MySQL user). First on the tables alone (the database's
// own privilege answer, no library needed), then through the whole doctor on a schema the real
// library migrated (that part needs the SDJ Go harness, and skips loudly without it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DoctorBroker } from '@/lib/doctor/types';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from '@/tests/sdj/databases';
import { BUILD_TIMEOUT_MS, buildHarness, harness, removeHarness, sdjAvailability, type Harness } from '@/tests/sdj/harness';
import { runDoctorOn, withLogin } from '@/tests/support/doctor';

const sdj = sdjAvailability();
const dialects = ['postgres', 'mysql'] as const;
const servers: Record<Dialect, boolean> = {
  postgres: await serverAvailable('postgres'),
  mysql: await serverAvailable('mysql'),
};
const up = sdj.ok && dialects.some((d) => servers[d]);
const SDJ_TABLES = [
  'schema_migrations',
  'jobs',
  'fan_outs',
  'scheduled_fires',
  'checkpoints',
  'signals',
  'concurrency_slots',
  'unique_locks',
  'queue_states',
];

async function restrictedLogin(db: TestDb, user: string, password: string): Promise<void> {
  if (db.dialect === 'postgres') {
    await db.query(`CREATE ROLE ${user} LOGIN PASSWORD '${password}'`);
    await db.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${user}`);
  } else {
    await db.query(`CREATE USER '${user}'@'%' IDENTIFIED BY '${password}'`);
    await db.query(`GRANT SELECT ON ${db.name}.* TO '${user}'@'%'`);
  }
}

async function dropLogin(db: TestDb | undefined, user: string): Promise<void> {
  if (!db) return;
  if (db.dialect === 'postgres') {
    await db.query(`DROP OWNED BY ${user}`).catch(() => undefined);
    await db.drop();
    const { sqlAdmin } = await import('@/tests/support/postgres');
    await sqlAdmin(`DROP ROLE IF EXISTS ${user}`).catch(() => undefined);
  } else {
    await db.query(`DROP USER IF EXISTS '${user}'@'%'`).catch(() => undefined);
    await db.drop();
  }
}

const WRITES = ['replay', 'discard', 'revoke', 'purge', 'enqueue'];

for (const d of dialects)
  describe.skipIf(!servers[d])(`SDJ grant checks on ${d} tables with a SELECT-only login`, () => {
    const tag = Math.random().toString(36).slice(2, 10);
    const user = `sdj_sel_${tag}`;
    const password = `Pw-${tag}-NotForLogs`;
    let db: TestDb;
    afterAll(() => dropLogin(db, user));

    it('names each missing privilege and what it switches off; the owner has them all', async () => {
      db = await createTestDb(d);
      for (const t of SDJ_TABLES) await db.query(`CREATE TABLE ${t} (id INT)`);
      await restrictedLogin(db, user, password);
      const { openSdjDb } = await import('@/lib/brokers/sdj/db');
      const { parseSdjUrl } = await import('@/lib/brokers/sdj/url');
      const { checkSdjAccess } = await import('@/lib/brokers/sdj/access');
      const store = d === 'postgres' ? 'PostgreSQL' : 'MySQL';
      const ro = await openSdjDb(parseSdjUrl(withLogin(db.url, user, password)), { lockWaitMs: 2000 });
      const owner = await openSdjDb(parseSdjUrl(db.url), { lockWaitMs: 2000 });
      try {
        const rows = await checkSdjAccess(ro);
        const row = (t: string) => rows.find((c) => c.check === `${store} privileges on ${t}`);
        const who = d === 'postgres' ? `role "${user}"` : `user ${user}@%`;
        expect(row('jobs')).toEqual({
          check: `${store} privileges on jobs`,
          ok: false,
          detail: `${who} lacks UPDATE, DELETE, INSERT (has SELECT)`,
          switchesOff: WRITES,
        });
        expect(row('queue_states')).toMatchObject({ ok: false, switchesOff: ['pause'] });
        expect(row('fan_outs')).toMatchObject({ ok: false, switchesOff: ['revoke'] });
        expect(row('schema_migrations')).toMatchObject({ ok: true });
        expect(rows.some((r) => r.fatal)).toBe(false);
        const all = await checkSdjAccess(owner);
        expect(all.map((r) => r.check.slice(store.length + 15))).toEqual(SDJ_TABLES);
        expect(all.every((r) => r.ok === true)).toBe(true);
        expect(JSON.stringify(rows)).not.toContain(password);
      } finally {
        await ro.close();
        await owner.close();
      }
    }, 60_000);
  });

describe.skipIf(!up)('doctor on Simple Durable Jobs schemas the library migrated', () => {
  const tag = Math.random().toString(36).slice(2, 10);
  const user = `sdj_ro_${tag}`;
  const password = `Pw-${tag}-NotForLogs`;
  const dbs: Partial<Record<Dialect, TestDb>> = {};
  let h: Harness | undefined;
  let dir: string;
  let brokers: DoctorBroker[];

  beforeAll(async () => {
    h = buildHarness(sdj.ok ? sdj.source : { kind: 'proxy' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-sdj-'));
    const entries: Array<Record<string, unknown>> = [];
    for (const d of dialects.filter((x) => servers[x])) {
      const db = await createTestDb(d);
      dbs[d] = db;
      harness(h, ['migrate', '--url', db.url]);
      await restrictedLogin(db, user, password);
      entries.push({ id: `${d}-owner`, kind: 'sdj', url: db.url });
      entries.push({ id: `${d}-ro`, kind: 'sdj', url: withLogin(db.url, user, password) });
    }
    brokers = await runDoctorOn(dir, entries);
  }, BUILD_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    vi.unstubAllEnvs();
    await dropLogin(dbs.postgres, user);
    await dropLogin(dbs.mysql, user);
    removeHarness(h);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const one = (id: string) => brokers.find((b) => b.id === id)!;
  const store: Record<Dialect, string> = { postgres: 'PostgreSQL', mysql: 'MySQL' };

  it.each(dialects.filter((d) => servers[d]))('finds the owner of the %s database usable, every table granted', (d) => {
    const b = one(`${d}-owner`);
    expect(b.why).toEqual([]);
    expect(b.verdict).toBe('usable');
    const grants = b.checks.filter((c) => c.check.startsWith(`${store[d]} privileges on `));
    expect(grants.map((c) => c.check.slice(store[d].length + 15))).toEqual([
      'schema_migrations',
      'jobs',
      'fan_outs',
      'scheduled_fires',
      'checkpoints',
      'signals',
      'concurrency_slots',
      'unique_locks',
      'queue_states',
    ]);
    expect(grants.every((c) => c.ok === true)).toBe(true);
  });

  it.each(dialects.filter((d) => servers[d]))('finds a %s login with SELECT only degraded, naming each write it switches off', (d) => {
    const b = one(`${d}-ro`);
    expect(b.verdict).toBe('degraded');
    const row = (t: string) => b.checks.find((c) => c.check === `${store[d]} privileges on ${t}`);
    const who = d === 'postgres' ? `role "${user}"` : `user ${user}@%`;
    expect(row('jobs')).toMatchObject({
      ok: false,
      detail: `${who} lacks UPDATE, DELETE, INSERT (has SELECT)`,
      switchesOff: ['replay', 'discard', 'revoke', 'purge', 'enqueue'],
    });
    expect(row('queue_states')).toMatchObject({ ok: false, switchesOff: ['pause'] });
    expect(row('schema_migrations')).toMatchObject({ ok: true });
    expect(row('fan_outs')).toMatchObject({ ok: false, switchesOff: ['revoke'] });
    expect(b.why.some((w) => /switches off replay, discard, revoke, purge, enqueue/.test(w))).toBe(true);
    expect(JSON.stringify(b)).not.toContain(password);
  });
});
