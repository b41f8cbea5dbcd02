// Round trips between the real Simple Durable Jobs v4.5.1 worker and the console's adapter, on
// PostgreSQL 15 and MySQL 9: what the Go worker writes (a job, a dead letter with its reason, a
// fan-out parent and its sub-jobs) the adapter reads; what the adapter enqueues, replays and
// replays with edits the Go worker runs with the same arguments; a job the adapter cancels never
// runs; the adapter's purge and discard leave no checkpoint, signal or sub-job of a deleted row.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ZDeadListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { guarded } from '@/tests/brokers/sdj/support';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from './databases';
import { BUILD_TIMEOUT_MS, buildHarness, harness, removeHarness, runWorker, sdjAvailability, type Harness } from './harness';
import { readJob, uuidBytes, uuidFromBytes } from './jobs-table';

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

const ARGS = { to: 'ops@example.com', n: 42, ok: true, tags: ['a', 'é', '漢'], nested: { at: null, f: 1.5 } };
const ITEMS = [{ i: 0 }, { i: 1 }];

for (const dialect of ['postgres', 'mysql'] as const) {
  describe.skipIf(!servers[dialect])(`Simple Durable Jobs v4.5.1 worker and the console on ${dialect}`, () => {
    let db: TestDb;
    let a: BrokerAdapter;
    beforeEach(async () => {
      db = guarded(await createTestDb(dialect));
      harness(h, ['migrate', '--url', db.url]);
      a = createSdjAdapter({ id: 'sdj', name: 'SDJ', url: db.url, readOnly: false, options: { lockWaitMs: 500 } }, adapterContext());
    });
    afterEach(async () => {
      await a?.close();
      await db?.drop();
    });

    const enqueue = (...args: string[]) => harness<{ id: string }>(h, ['enqueue', '--url', db.url, ...args]).id;
    const p = (n: number) => (dialect === 'postgres' ? `$${n}` : '?');
    const id16 = (id: string) => (dialect === 'postgres' ? id : uuidBytes(id));
    const asId = (v: unknown) => (Buffer.isBuffer(v) ? uuidFromBytes(v) : String(v));
    const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: string | number }>(sql, params))[0]!.n);
    const tasks = async (state: string, queue: string) =>
      (await a.listTasks({ ...ZTaskListQuery.parse({ queue }), state })).items.map((t) => t.id);
    const deadIn = async (queue: string) => (await a.listDead(ZDeadListQuery.parse({ queue }))).items;
    /** Rows that point at a row that is gone: what a delete or purge must never leave. */
    const orphans = async () => ({
      checkpoints: await count('SELECT COUNT(*) AS n FROM checkpoints c WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = c.job_id)'),
      signals: await count('SELECT COUNT(*) AS n FROM signals s WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = s.job_id)'),
      children: await count(
        'SELECT COUNT(*) AS n FROM jobs c WHERE c.parent_job_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = c.parent_job_id)',
      ),
      fanOuts: await count('SELECT COUNT(*) AS n FROM fan_outs f WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = f.parent_job_id)'),
    });
    const NONE = { checkpoints: 0, signals: 0, children: 0, fanOuts: 0 };

    /** A dead letter the real worker made: `fail-permanent` dies on its first run. */
    async function deadLetter(queue: string, args: unknown): Promise<string> {
      const id = enqueue('--type', 'fail-permanent', '--queue', queue, '--retries', '5', '--args', JSON.stringify(args));
      const { summary, runs } = await runWorker(h, db.url, [queue], 1);
      expect([summary.failed, runs.map((r) => r.id)]).toEqual([1, [id]]);
      return id;
    }

    /** A `fan-out` parent on queue wf that the real worker fanned out into two `record` sub-jobs on kids. */
    async function waitingWorkflow(): Promise<{ parent: string; children: string[] }> {
      const parent = enqueue(
        '--type',
        'fan-out',
        '--queue',
        'wf',
        '--args',
        JSON.stringify({ child_type: 'record', child_queue: 'kids', items: ITEMS }),
      );
      const { summary } = await runWorker(h, db.url, ['wf'], 0, 30, 1);
      expect(summary.waiting).toBe(1);
      const rows = await db.query(`SELECT id FROM jobs WHERE parent_job_id = ${p(1)} ORDER BY fan_out_index`, [id16(parent)]);
      return { parent, children: rows.map((r) => asId(r.id)) };
    }

    it('reads a job the Go API enqueued: pending on its queue, its type, priority, attempts and args; completed once the worker ran it', async () => {
      const id = enqueue('--type', 'record', '--queue', 'mail', '--priority', '7', '--args', JSON.stringify(ARGS));
      const t = (await a.getTask(id))!;
      expect(t).toMatchObject({ id, queue: 'mail', task: 'record', state: 'pending', priority: '7', deliveries: '0', worker: null });
      expect([JSON.parse(t.raw), t.rawTruncated]).toEqual([ARGS, false]);
      expect(await tasks('pending', 'mail')).toEqual([id]);
      expect((await a.overview()).queues.find((q) => q.name === 'mail')).toMatchObject({ counts: { pending: 1, completed: 0 }, dead: 0 });

      await runWorker(h, db.url, ['mail'], 1);
      expect(await a.getTask(id)).toMatchObject({ id, state: 'completed', deliveries: '1', worker: null });
      expect(await tasks('pending', 'mail')).toEqual([]);
      expect(await tasks('completed', 'mail')).toEqual([id]);
    });

    it("reads the dead letters the worker made with the library's reason: its label as the cause, its error as the reason", async () => {
      const exhausted = enqueue('--type', 'always-error', '--queue', 'flaky', '--retries', '2', '--args', '{"k":1}');
      await runWorker(h, db.url, ['flaky'], 1);
      const permanent = await deadLetter('perm', { k: 2 });

      expect(await a.getDead(exhausted)).toMatchObject({
        id: exhausted,
        queue: 'flaky',
        task: 'always-error',
        cause: 'max retries exhausted',
        reason: 'harness: always errors',
        summary: 'harness: always errors',
      });
      expect(await a.getDead(permanent)).toMatchObject({
        id: permanent,
        queue: 'perm',
        task: 'fail-permanent',
        cause: 'non-retryable failure',
        reason: 'no retry: harness: permanent failure',
        summary: 'no retry: harness: permanent failure',
      });
      expect(JSON.parse((await a.getDead(permanent))!.raw)).toEqual({ k: 2 });
      expect((await deadIn('flaky')).map((d) => [d.id, d.cause])).toEqual([[exhausted, 'max retries exhausted']]);
      expect((await deadIn('perm')).map((d) => [d.id, d.cause])).toEqual([[permanent, 'non-retryable failure']]);
      expect(await tasks('failed', 'flaky')).toEqual([exhausted]);
    });

    it('reads a fan-out the worker made: the parent waiting with its sub-jobs in order, each sub-job linked back with its item as args', async () => {
      const { parent, children } = await waitingWorkflow();
      expect(children).toHaveLength(2);
      const t = (await a.getTask(parent))!;
      expect(t).toMatchObject({ id: parent, queue: 'wf', task: 'fan-out', state: 'waiting' });
      expect((await a.family!(parent, { limit: 50 }))!.children.map((c) => c.id)).toEqual(children);
      expect(t.payload.fields.find((f) => f.name === 'sub_jobs')?.value).toEqual({
        t: 'list',
        items: children.map((v) => ({ t: 'uuid', v })),
      });
      for (const [i, child] of children.entries()) {
        const c = (await a.getTask(child))!;
        expect(c).toMatchObject({ id: child, queue: 'kids', task: 'record', state: 'pending' });
        expect((await a.family!(child, { limit: 50 }))!.parent?.id).toBe(parent);
        expect(JSON.parse(c.raw)).toEqual(ITEMS[i]);
      }
      expect(await tasks('waiting', 'wf')).toEqual([parent]);
      expect((await tasks('pending', 'kids')).sort()).toEqual([...children].sort());
    });

    it('the worker runs what the console enqueued with the same args, the delayed job after its run_at', async () => {
      const runAt = new Date(Date.now() + 2500);
      const now = await a.enqueue({ task: 'record', queue: 'console', fields: { args: JSON.stringify(ARGS), priority: '1' } });
      const later = await a.enqueue({
        task: 'record',
        queue: 'console',
        fields: { args: '{"delayed": true}', run_at: runAt.toISOString() },
      });
      expect([now.state, later.state]).toEqual(['pending', 'pending']);

      const { summary, runs } = await runWorker(h, db.url, ['console'], 2);
      expect(summary).toMatchObject({ completed: 2, failed: 0 });
      expect(runs).toEqual([
        { handler: 'record', id: now.id, queue: 'console', attempt: 1, args: ARGS },
        { handler: 'record', id: later.id, queue: 'console', attempt: 1, args: { delayed: true } },
      ]);
      const delayed = (await readJob(db, later.id))!;
      expect(delayed.status).toBe('completed');
      expect(new Date(delayed.raw.started_at as string | Date).getTime()).toBeGreaterThanOrEqual(runAt.getTime() - 5);
    });

    it('the worker re-runs a dead letter the console replayed, same id and args, from attempt 1; and one replayed with edits, with the edited args on the edited queue', async () => {
      const plain = await deadLetter('perm', { k: 2, note: 'as died' });
      const edited = await deadLetter('perm', { k: 3, note: 'old' });
      const r = await a.replayDead([plain]);
      expect([r.succeeded.map((o) => o.id), r.failed]).toEqual([[plain], []]);
      expect((await readJob(db, plain))!).toMatchObject({ status: 'pending', attempt: 0 });
      expect(await deadIn('perm')).toHaveLength(1);
      const e = await a.replayEdited!(edited, {
        kwargs: [
          ['k', { t: 'int', v: '4' }],
          ['note', { t: 'str', v: 'new' }],
        ],
        queue: 'fixed',
      });
      expect(e.outcome).toMatchObject({ id: edited, outcome: 'ok' });

      const first = await runWorker(h, db.url, ['perm'], 1);
      expect(first.runs).toEqual([{ handler: 'fail-permanent', id: plain, queue: 'perm', attempt: 1, args: { k: 2, note: 'as died' } }]);
      const second = await runWorker(h, db.url, ['fixed'], 1);
      expect(second.runs).toEqual([{ handler: 'fail-permanent', id: edited, queue: 'fixed', attempt: 1, args: { k: 4, note: 'new' } }]);
      // Both died again, as the handler does: dead letters once more, with the library's reason.
      expect(await a.getDead(edited)).toMatchObject({ queue: 'fixed', cause: 'non-retryable failure' });
      expect((await deadIn('perm')).map((d) => d.id)).toEqual([plain]);
    });

    it('never runs a job the console cancelled, nor the sub-jobs of a workflow parent it cancelled', async () => {
      // The cancelled job would be claimed first: it has the higher priority.
      const cancelled = enqueue('--type', 'record', '--queue', 'rv', '--priority', '9', '--args', '{"cancel":true}');
      const kept = enqueue('--type', 'record', '--queue', 'rv', '--args', '{"cancel":false}');
      const r = await a.revoke([cancelled]);
      expect([r.succeeded.map((o) => o.id), r.failed]).toEqual([[cancelled], []]);
      const { parent, children } = await waitingWorkflow();
      const w = await a.revoke([parent]);
      expect([w.succeeded.map((o) => o.id), w.failed]).toEqual([[parent], []]);

      // maxJobs 0: the worker polls for the whole window, so anything claimable would run.
      const { runs } = await runWorker(h, db.url, ['rv', 'wf', 'kids'], 0, 6);
      expect(runs.map((x) => [x.id, x.args])).toEqual([[kept, { cancel: false }]]);
      expect((await readJob(db, parent))!.status).toBe('cancelled');
      // Never claimed: cancelled, and no start time.
      for (const id of [cancelled, ...children]) {
        const row = (await readJob(db, id))!;
        expect([id, row.status, row.raw.started_at ?? null]).toEqual([id, 'cancelled', null]);
      }
      expect(await tasks('cancelled', 'rv')).toEqual([cancelled]);
    });

    it('purge keeps the sub-jobs of a live fan-out and removes plain pending jobs; discard removes dead letters; nothing is left orphaned', async () => {
      const { parent, children } = await waitingWorkflow();
      const plain = [enqueue('--type', 'record', '--queue', 'kids'), enqueue('--type', 'record', '--queue', 'kids')];
      expect(await a.purge('kids')).toMatchObject({ queue: 'kids', removed: 2 });
      for (const id of plain) expect(await readJob(db, id)).toBeUndefined();
      expect((await tasks('pending', 'kids')).sort()).toEqual([...children].sort());
      expect(await count(`SELECT COUNT(*) AS n FROM checkpoints WHERE job_id = ${p(1)}`, [id16(parent)])).toBe(1);
      expect(await orphans()).toEqual(NONE);

      const letters = [await deadLetter('perm', { k: 5 }), await deadLetter('perm', { k: 6 })];
      const d = await a.discardDead(letters);
      expect([d.succeeded.map((o) => o.id), d.failed]).toEqual([letters, []]);
      for (const id of letters) expect(await readJob(db, id)).toBeUndefined();
      expect(await deadIn('perm')).toEqual([]);
      expect(await orphans()).toEqual(NONE);

      // The workflow the purge kept still completes: the worker runs both sub-jobs, then the parent.
      const { runs } = await runWorker(h, db.url, ['wf', 'kids'], 3);
      expect(
        runs
          .filter((x) => x.handler === 'record')
          .map((x) => x.args)
          .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
      ).toEqual(ITEMS);
      expect((await readJob(db, parent))!.status).toBe('completed');
    });
  });
}
