import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL, pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { createPostgresAuditStore } from '@/lib/audit/postgres';
import { createSqliteAuditStore } from '@/lib/audit/sqlite';
import { ZAuditQuery } from '@/lib/audit/types';
import { createSqlMoveJournal } from '@/lib/brokers/move-journal';
import { runnerOf } from '@/lib/bulk/store-open';
import { createSqlBulkStore } from '@/lib/bulk/store-sql';
import { createSqlLeaseStore } from '@/lib/leases/store';
import { openStateHandle, type StateHandle } from '@/lib/state/handle';
import { createLeases } from '@/lib/state/leases';
import { migratePostgres, migrateSqlite } from '@/lib/state/migrate';
import { STEPS } from '@/lib/state/steps';
import { createPostgresTrendStore } from '@/lib/trends/store-postgres';
import { createSqliteTrendStore } from '@/lib/trends/store-sqlite';
import { makeOldReleaseStore, type Exec } from './old-release';

// The state store's migration ledger on both stores: a store made by the release before the
// ledger upgrades in place with every row it had, and a second start runs no step.

const ok = await pgAvailable();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-ledger-'));
const schemas: string[] = [];
const ALL = STEPS.map((s) => s.id);

afterAll(async () => {
  if (ok) for (const s of schemas) await sqlAdmin(`DROP SCHEMA ${s} CASCADE`);
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Backend {
  where: string;
  exec: Exec;
  done: () => Promise<void>;
}

async function newSqlite(): Promise<Backend> {
  const where = path.join(dir, `state-${randomBytes(3).toString('hex')}.sqlite3`);
  const db = new Database(where);
  return { where, exec: async (s) => db.exec(s), done: async () => void db.close() };
}

async function newPostgres(): Promise<Backend> {
  const s = `ledger_${randomBytes(4).toString('hex')}`;
  schemas.push(s);
  await sqlAdmin(`CREATE SCHEMA ${s}`);
  const c = new pg.Client({ connectionString: searchPathUrl(s) });
  await c.connect();
  return { where: searchPathUrl(s), exec: (q) => c.query(q), done: () => c.end() };
}

const kinds = [
  { name: 'SQLite', open: newSqlite, skip: false },
  { name: 'PostgreSQL', open: newPostgres, skip: !ok },
] as const;

async function ledgerOf(h: StateHandle): Promise<string[]> {
  const sql = 'SELECT id FROM console_schema_steps ORDER BY id';
  const rows = h.kind === 'sqlite' ? (h.db.prepare(sql).all() as Array<{ id: string }>) : (await h.pool.query<{ id: string }>(sql)).rows;
  return rows.map((r) => r.id);
}

/** Runs the migration on a second, fresh handle: the steps it ran. */
async function secondStart(where: string): Promise<string[]> {
  const h = openStateHandle(where);
  try {
    return h.kind === 'sqlite' ? migrateSqlite(h.db) : await migratePostgres(h.pool);
  } finally {
    await h.close();
  }
}

for (const k of kinds) {
  describe.skipIf(k.skip)(`state store migration ledger (${k.name})`, () => {
    let b: Backend;
    beforeAll(async () => {
      b = await k.open();
    });
    afterAll(async () => {
      await b.done();
    });

    it('upgrades a store of the previous release in place: every row is still there, every step recorded', async () => {
      await makeOldReleaseStore(b.exec, k.name === 'SQLite' ? 'sqlite' : 'postgres');
      const h = openStateHandle(b.where);
      try {
        await h.ready();
        expect(await ledgerOf(h)).toEqual([...ALL].sort());
        const audit = h.kind === 'sqlite' ? createSqliteAuditStore(h) : createPostgresAuditStore(h);
        const trail = await audit.list(ZAuditQuery.parse({ broker: 'b', task: 't1' }));
        expect(trail.entries.map((e) => [e.id, e.who, e.action])).toEqual([['old-entry', 'vic', 'revoke']]);
        const db = await runnerOf(h);
        const bulk = createSqlBulkStore(db);
        expect(await bulk.get('job-1')).toMatchObject({ id: 'job-1', state: 'paused', done: 3, total: 5, owner: null });
        expect(await bulk.ids('job-1')).toEqual(['a', 'b', 'c', 'd', 'e']);
        expect(await createSqlMoveJournal(db).get('b', 'letter-1')).toMatchObject({ moveId: 'm-1', note: 'crashed after the send' });
        expect(await createSqlLeaseStore(db).get('qf', 'mail')).toMatchObject({
          owner: 'old-host:1:abc',
          deadlineMs: 1000,
          pausedByConsole: true,
          detail: { letter: '7' },
        });
        // The pause hold and the sampler's lease are both in the one lease table now.
        const leases = createLeases(db);
        expect(await leases.get('pause/qf/mail')).toMatchObject({ holder: 'old-host:1:abc', expiresMs: 1000 });
        expect(await leases.get('trend-sampler')).toMatchObject({ holder: 'old-host:1:abc', expiresMs: 1000 });
        const tables = await db.all<{ n: number | string }>(
          h.kind === 'sqlite'
            ? "SELECT count(*) AS n FROM sqlite_master WHERE name = 'console_pause_leases'"
            : "SELECT count(to_regclass('console_pause_leases')) AS n",
          [],
        );
        expect(Number(tables[0]!.n)).toBe(0);
        const trends = h.kind === 'sqlite' ? createSqliteTrendStore(h) : createPostgresTrendStore(h);
        const series = await trends.read({ broker: 'b', queue: '', fromMs: 0, bucketMs: 60_000, buckets: 2 });
        expect(series.depth).toEqual([null, 42]);
      } finally {
        await h.close();
      }
    });

    it('a second start runs no step', async () => {
      expect(await secondStart(b.where)).toEqual([]);
    });
  });
}

describe('state store migration ledger on a new store', () => {
  it('SQLite: the first start runs every step, the next none', async () => {
    const { where, done } = await newSqlite();
    await done();
    const h = openStateHandle(where);
    await h.close();
    expect(await secondStart(where)).toEqual([]);
    const fresh = path.join(dir, 'fresh.sqlite3');
    const db = new Database(fresh);
    try {
      expect(migrateSqlite(db)).toEqual(ALL);
      expect(migrateSqlite(db)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it.skipIf(!ok)('PostgreSQL: a start whose steps are recorded takes no lock (it finishes while another session holds it)', async () => {
    const b = await newPostgres();
    await b.done();
    const pool = new pg.Pool({ connectionString: b.where, max: 2 });
    try {
      expect(await migratePostgres(pool)).toEqual(ALL);
    } finally {
      await pool.end();
    }
    const holder = new pg.Client({ connectionString: PG_URL });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(727274002)');
      expect(await secondStart(b.where)).toEqual([]);
    } finally {
      await holder.query('SELECT pg_advisory_unlock(727274002)').catch(() => undefined);
      await holder.end();
    }
  });
});
