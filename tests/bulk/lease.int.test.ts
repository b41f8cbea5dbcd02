import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { acquireJob, INTERRUPTED_IN_FLIGHT, restoreJob, storeHooks } from '@/lib/bulk/persist';
import { openStateDbForTests } from '@/lib/bulk/store-open';
import { createSqlBulkStore } from '@/lib/bulk/store-sql';
import { OwnershipLost, type BulkRow, type BulkStore } from '@/lib/bulk/store';
import { FakeBackend, idsFrom, latch } from '@/tests/bulk/fake-backend';
import { makeOldReleaseStore } from '@/tests/state/old-release';

// A bulk job's owner is its lease `bulk/<id>` and nothing else: consoles racing for a job whose
// console died (exactly one resumes it, every id acted on once), a holder whose lease ran out
// writing nothing, and a store of an older release (owner columns on the row) upgrading.

const ok = await pgAvailable();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-bulk-lease-'));
const schemas: string[] = [];
afterAll(async () => {
  if (ok) for (const s of schemas) await sqlAdmin(`DROP SCHEMA ${s} CASCADE`);
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Where {
  where: string;
  /** Raw SQL on the database, as another release would run it. */
  exec(sql: string): Promise<unknown>;
  done(): Promise<void>;
}

async function sqliteWhere(): Promise<Where> {
  const where = path.join(dir, `state-${randomBytes(3).toString('hex')}.sqlite3`);
  const db = new Database(where);
  return { where, exec: async (s) => db.exec(s), done: async () => void db.close() };
}

async function postgresWhere(): Promise<Where> {
  const s = `bulklease_${randomBytes(4).toString('hex')}`;
  schemas.push(s);
  await sqlAdmin(`CREATE SCHEMA ${s}`);
  const c = new pg.Client({ connectionString: searchPathUrl(s) });
  await c.connect();
  return { where: searchPathUrl(s), exec: (q) => c.query(q), done: () => c.end() };
}

const kinds = [
  { name: 'PostgreSQL', open: postgresWhere, skip: !ok },
  { name: 'SQLite', open: sqliteWhere, skip: false },
] as const;

const row = (id: string, o: Partial<BulkRow> = {}): BulkRow => ({
  id,
  brokerId: 'b1',
  action: 'replay',
  filter: {},
  state: 'running',
  rate: null,
  batchSize: 2,
  expectedCount: null,
  snapshotAt: '2026-12-03T10:00:00.000Z',
  capped: false,
  searchedNewest: null,
  createdAt: '2026-12-03T10:00:00.000Z',
  startedAt: '2026-12-03T10:00:01.000Z',
  finishedAt: null,
  error: null,
  stoppedAt: null,
  done: 0,
  inFlight: 0,
  total: 10,
  succeeded: 0,
  succeededSample: [],
  skipped: 0,
  failed: 0,
  batches: 0,
  auditId: null,
  owner: 'x',
  heartbeatMs: 0,
  control: null,
  interrupted: null,
  ...o,
});

/** What a console does to take a stopped job over and resume it (lib/bulk/control.ts, operations.ts). */
async function resumeAs(store: BulkStore, jobId: string, backend: FakeBackend) {
  const r = await acquireJob(store, jobId);
  if (!r) return null;
  // The other console won, ran the job to its end and gave its lease back before this one asked
  // (a slow machine): there is nothing left to resume here (the console answers "job is done").
  if (r.state !== 'paused' && r.state !== 'failed') {
    await store.release(jobId);
    return null;
  }
  const job = await restoreJob(store, r, backend);
  job.resume();
  if (!job.looping) job.continueRestored();
  await job.finished;
  return job;
}

const stores: BulkStore[] = [];
async function storeOn(w: Where, me: string, now?: () => number): Promise<BulkStore> {
  const s = createSqlBulkStore(await openStateDbForTests(w.where), { me, ...(now ? { now } : {}) });
  stores.push(s);
  return s;
}
afterAll(async () => {
  for (const s of stores) await s.close();
});

for (const k of kinds) {
  describe.skipIf(k.skip)(`bulk job leases (${k.name})`, () => {
    it('two consoles race for a job whose console died: exactly one resumes it, each id is acted on once', async () => {
      const w = await k.open();
      // The console that died: its lease ran out a while ago, 4 ids done and a batch of 2 in flight.
      const dead = await storeOn(w, 'dead-console', () => Date.now() - 60_000);
      const a = await storeOn(w, 'console-a');
      const b = await storeOn(w, 'console-b');
      for (let round = 0; round < 5; round++) {
        const id = `race-${round}`;
        const ids = idsFrom(`r${round}`, 10);
        await dead.create(row(id), ids);
        expect(await dead.claim(id)).toBe(true);
        await dead.save(row(id, { done: 4, inFlight: 2, succeeded: 4, batches: 2, owner: 'dead-console' }));
        const broker = new FakeBackend(ids.slice(6));
        const [ja, jb] = await Promise.all([resumeAs(a, id, broker), resumeAs(b, id, broker)]);
        expect([ja, jb].filter(Boolean)).toHaveLength(1);
        expect(broker.calls.flat()).toEqual(ids.slice(6));
        const end = await a.get(id);
        expect(end).toMatchObject({ state: 'done', owner: null, done: 10, succeeded: 8, failed: 2, interrupted: null });
        expect(await a.outcomes(id, 10)).toEqual(ids.slice(4, 6).map((x) => ({ id: x, outcome: 'error', message: INTERRUPTED_IN_FLIGHT })));
      }
      await w.done();
    });

    it('a holder whose lease ran out writes nothing and sends no further batch; the console that took over has the row', async () => {
      const w = await k.open();
      let now = Date.now();
      const a = await storeOn(w, 'console-a', () => now);
      const b = await storeOn(w, 'console-b', () => now);
      const ids = idsFrom('e', 6);
      await a.create(row('exp', { state: 'paused', total: 6 }), ids);

      // The lease ran out and nobody took it: the row still cannot be written by its holder.
      expect(await a.claim('exp')).toBe(true);
      now += 31_000;
      await expect(
        a.save(row('exp', { done: 2, owner: 'console-a' }), [{ id: 'e-000000', outcome: 'missing', message: 'gone' }]),
      ).rejects.toBeInstanceOf(OwnershipLost);
      expect(await a.get('exp')).toMatchObject({ state: 'paused', done: 0 });
      expect(await a.outcomes('exp', 10)).toEqual([]);

      // A running loop: its console stalls with the first batch at the broker past its lease, and
      // another console takes the job over meanwhile.
      const held = latch();
      const broker = new FakeBackend(ids);
      broker.beforeAct = (_b, call) => (call === 1 ? held.wait : undefined);
      const r = await acquireJob(a, 'exp');
      const job = await restoreJob(a, r!, broker);
      job.hooks = storeHooks(a);
      job.resume();
      job.continueRestored();
      await expect.poll(() => broker.calls.length).toBe(1);
      now += 31_000;
      const taken = await acquireJob(b, 'exp');
      expect(taken).toMatchObject({ state: 'paused', done: 2, failed: 2, interrupted: { processed: 0, inFlight: 2 }, owner: 'console-b' });
      held.open();
      await job.finished;
      expect(job.lost).toBe(true);
      expect(broker.calls).toHaveLength(1);
      // B's row stands: A's outcomes of the batch and its progress were not written.
      expect(await b.get('exp')).toMatchObject({ state: 'paused', done: 2, succeeded: 0, failed: 2, owner: 'console-b' });
      expect((await b.outcomes('exp', 10)).map((o) => o.message)).toEqual([INTERRUPTED_IN_FLIGHT, INTERRUPTED_IN_FLIGHT]);
      await w.done();
    });

    it('a store of the release before the lease, with a job its stopped console owned, upgrades and the job resumes', async () => {
      const w = await k.open();
      await makeOldReleaseStore(w.exec, k.name === 'SQLite' ? 'sqlite' : 'postgres');
      const ids = idsFrom('o', 5);
      const old = row('job-2', { total: 5, done: 2, inFlight: 1, succeeded: 2, batches: 1, owner: 'old-host:2:def', heartbeatMs: 1000 });
      await w.exec(
        `INSERT INTO console_bulk_jobs (id, broker, created_at, state, owner, heartbeat_ms, control, finished_at, row, ids)
         VALUES ('job-2', 'b1', '${old.createdAt}', 'running', 'old-host:2:def', 1000, NULL, NULL, '${JSON.stringify(old)}', '${JSON.stringify(ids)}')`,
      );
      const s = await storeOn(w, 'console-new');
      // The owner is now the job's lease, which ran out with the old heartbeat; the row keeps no owner.
      expect(await s.get('job-2')).toMatchObject({ state: 'running', owner: 'old-host:2:def', heartbeatMs: 1000 });
      await expect(w.exec('SELECT owner FROM console_bulk_jobs')).rejects.toThrow();
      await expect(w.exec('SELECT heartbeat_ms FROM console_bulk_jobs')).rejects.toThrow();
      expect(await s.get('job-1')).toMatchObject({ state: 'paused', owner: null });
      const broker = new FakeBackend(ids.slice(3));
      const job = await resumeAs(s, 'job-2', broker);
      expect(job).not.toBeNull();
      expect(broker.calls.flat()).toEqual(ids.slice(3));
      expect(await s.get('job-2')).toMatchObject({ state: 'done', done: 5, succeeded: 4, failed: 1, owner: null });
      await w.done();
    });
  });
}
