// The operator writes of the real Simple Durable Jobs v4.5.1, run through its own Go API (Requeue,
// the dashboard's RetryJob, CancelJob, DeleteJob, PurgeJobs), and the rows they leave behind on
// PostgreSQL 15 and MySQL 9: the reference the console's SDJ adapter mirrors
// (docs/systems/simple-durable-jobs.md, "Writes").
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from './databases';
import { BUILD_TIMEOUT_MS, buildHarness, harness, removeHarness, runHarness, runWorker, sdjAvailability, type Harness } from './harness';
import { readJob, uuidBytes } from './jobs-table';

const sdj = sdjAvailability();
const servers: Record<Dialect, boolean> = {
  postgres: sdj.ok && (await serverAvailable('postgres')),
  mysql: sdj.ok && (await serverAvailable('mysql')),
};
let h: Harness;
beforeAll(() => {
  if (sdj.ok && (servers.postgres || servers.mysql)) h = buildHarness(sdj.source);
}, BUILD_TIMEOUT_MS + 10_000);
afterAll(() => removeHarness(h));

for (const dialect of ['postgres', 'mysql'] as const) {
  describe.skipIf(!servers[dialect])(`Simple Durable Jobs v4.5.1 operator writes on ${dialect}`, () => {
    let db: TestDb;
    beforeEach(async () => {
      db = await createTestDb(dialect);
      harness(h, ['migrate', '--url', db.url]);
    });
    afterEach(async () => db?.drop());

    const enqueue = (args: string[]) => harness<{ id: string }>(h, ['enqueue', '--url', db.url, ...args]).id;
    const op = (...args: string[]) =>
      runHarness<{ ok?: boolean; error?: string; requeued?: boolean; deleted?: number }>(h, ['op', '--url', db.url, ...args]);
    const id16 = (id: string) => (dialect === 'postgres' ? id : uuidBytes(id));
    const p = (n: number) => (dialect === 'postgres' ? `$${n}` : '?');
    const addCheckpoint = (jobId: string) =>
      db.query(
        `INSERT INTO checkpoints (id, job_id, call_index, call_type, created_at) VALUES (${p(1)}, ${p(2)}, 0, 'step', CURRENT_TIMESTAMP)`,
        [id16(randomUUID()), id16(jobId)],
      );
    const checkpointsOf = async (jobId: string) =>
      Number((await db.query<{ n: string | number }>(`SELECT COUNT(*) AS n FROM checkpoints WHERE job_id = ${p(1)}`, [id16(jobId)]))[0]!.n);

    async function deadLetter(queue: string, args = '{"replay":1}'): Promise<string> {
      const id = enqueue(['--type', 'always-error', '--queue', queue, '--retries', '1', '--args', args]);
      await runWorker(h, db.url, [queue], 1);
      expect((await readJob(db, id))!.status).toBe('failed');
      return id;
    }

    it('Requeue of a dead letter: pending, attempt 0, execution and dead-letter columns cleared, checkpoints deleted, last_heartbeat_at kept; the worker runs it again with the same args', async () => {
      const id = await deadLetter('replay');
      await addCheckpoint(id);
      // A claim resets last_heartbeat_at to NULL and only a heartbeat sets it; plant one to see
      // what Requeue does with it.
      const beat = new Date('2026-01-02T03:04:05.678Z');
      await db.query(`UPDATE jobs SET last_heartbeat_at = ${p(1)} WHERE id = ${p(2)}`, [beat, id16(id)]);
      expect(op('requeue', id).json).toEqual({ ok: true, requeued: true });
      const row = (await readJob(db, id))!;
      expect(row).toMatchObject({ status: 'pending', attempt: 0, args: { replay: 1 }, max_retries: 1 });
      expect(row.raw).toMatchObject({
        last_error: '',
        dead_letter_reason: '',
        locked_by: '',
        dead_lettered_at: null,
        result: null,
        locked_until: null,
        started_at: null,
        completed_at: null,
        run_at: null,
      });
      expect(Boolean(row.raw.dq_ready)).toBe(true);
      // Not in the library's reset list: the last heartbeat of the failed run stays.
      expect(row.raw.last_heartbeat_at).toEqual(beat);
      expect(await checkpointsOf(id)).toBe(0);

      const { runs } = await runWorker(h, db.url, ['replay'], 1);
      expect(runs.map((r) => [r.id, r.attempt, r.args])).toEqual([[id, 1, { replay: 1 }]]);
    });

    it('Requeue is refused for a job that is not failed or cancelled (answers false, changes nothing); RetryJob says why', async () => {
      const id = enqueue(['--type', 'record', '--queue', 'live']);
      expect(op('requeue', id).json).toEqual({ ok: true, requeued: false });
      expect(op('retry', id)).toMatchObject({ status: 2, json: { error: 'jobs: cannot retry job with status "pending"' } });
      expect((await readJob(db, id))!.status).toBe('pending');
    });

    it('Requeue of a dead letter whose unique key a live job now holds fails on idx_jobs_active_unique (the key is kept on replay)', async () => {
      const dead = enqueue(['--type', 'always-error', '--queue', 'uniq', '--retries', '1', '--unique', 'order-9']);
      await runWorker(h, db.url, ['uniq'], 1);
      // A terminal job frees its key: a new job may take it.
      const live = enqueue(['--type', 'record', '--queue', 'other', '--unique', 'order-9']);
      const r = op('requeue', dead);
      expect(r.status).toBe(2);
      expect(r.json.error).toMatch(/idx_jobs_active_unique/);
      expect(r.json.error).toMatch(dialect === 'postgres' ? /SQLSTATE 23505/ : /Error 1062/);
      expect((await readJob(db, dead))!.status).toBe('failed');
      expect((await readJob(db, live))!.raw.unique_key).toBe('order-9');
    });

    it('the dashboard RetryJob resets a dead letter exactly as Requeue does', async () => {
      const id = await deadLetter('retry');
      expect(op('retry', id).json).toEqual({ ok: true });
      const row = (await readJob(db, id))!;
      expect(row).toMatchObject({ status: 'pending', attempt: 0 });
      expect(row.raw).toMatchObject({ last_error: '', dead_letter_reason: '', dead_lettered_at: null, completed_at: null });
    });

    it('CancelJob of a pending job: cancelled, "cancelled by user", completed_at set, not a dead letter; the worker never runs it', async () => {
      const id = enqueue(['--type', 'record', '--queue', 'cancel', '--args', '{"never":true}']);
      expect(op('cancel', id).json).toEqual({ ok: true });
      const row = (await readJob(db, id))!;
      expect(row.status).toBe('cancelled');
      expect(row.raw).toMatchObject({ last_error: 'cancelled by user', dead_lettered_at: null, dead_letter_reason: '' });
      expect(row.raw.completed_at).not.toBeNull();
      const { runs } = await runWorker(h, db.url, ['cancel'], 0, 2);
      expect(runs).toEqual([]);
      // Cancelling again is a no-op; cancelling a terminal job of another status is refused.
      expect(op('cancel', id).json).toEqual({ ok: true });
      const dead = await deadLetter('cancel2');
      expect(op('cancel', dead)).toMatchObject({ status: 2, json: { error: 'jobs: job is not cancellable' } });
    });

    it('DeleteJob removes the job and its checkpoints; PurgeJobs(queue, status) deletes only that status in that queue', async () => {
      const a = await deadLetter('purge', '{"a":1}');
      const b = await deadLetter('purge', '{"b":1}');
      const keep = enqueue(['--type', 'record', '--queue', 'purge']);
      await addCheckpoint(a);
      await addCheckpoint(b);
      expect(op('delete', a).json).toEqual({ ok: true });
      expect(await readJob(db, a)).toBeUndefined();
      expect(await checkpointsOf(a)).toBe(0);
      expect(op('--queue', 'purge', '--status', 'failed', 'purge').json).toEqual({ ok: true, deleted: 1 });
      expect(await readJob(db, b)).toBeUndefined();
      expect(await checkpointsOf(b)).toBe(0);
      expect((await readJob(db, keep))!.status).toBe('pending');
      expect(op('delete', randomUUID()).json).toEqual({ ok: true }); // a missing id is not an error
    });
  });
}
