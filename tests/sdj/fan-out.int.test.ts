// Fan-out workflows of the real Simple Durable Jobs v4.5.1 and the guards its operator writes
// apply to them (DeleteJob, PurgeJobs, CancelJob, Requeue, DeleteWorkflowSubtree), on PostgreSQL
// 15 and MySQL 9: what the console's delete/purge/cancel/replay must refuse or cascade the same way.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from './databases';
import { BUILD_TIMEOUT_MS, buildHarness, harness, removeHarness, runHarness, runWorker, sdjAvailability, type Harness } from './harness';
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

const ITEMS = [{ i: 0 }, { i: 1 }];

for (const dialect of ['postgres', 'mysql'] as const) {
  describe.skipIf(!servers[dialect])(`Simple Durable Jobs v4.5.1 fan-out guards on ${dialect}`, () => {
    let db: TestDb;
    beforeEach(async () => {
      db = await createTestDb(dialect);
      harness(h, ['migrate', '--url', db.url]);
    });
    afterEach(async () => db?.drop());

    const op = (...args: string[]) =>
      runHarness<{ ok?: boolean; error?: string; requeued?: boolean; deleted?: number }>(h, ['op', '--url', db.url, ...args]);
    const p = (n: number) => (dialect === 'postgres' ? `$${n}` : '?');
    const id16 = (id: string) => (dialect === 'postgres' ? id : uuidBytes(id));
    const asId = (v: unknown) => (Buffer.isBuffer(v) ? uuidFromBytes(v) : String(v));
    const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: string | number }>(sql, params))[0]!.n);
    const childrenOf = async (parent: string) =>
      (await db.query(`SELECT id FROM jobs WHERE parent_job_id = ${p(1)} ORDER BY fan_out_index`, [id16(parent)])).map((r) => asId(r.id));

    /** A parent on queue wf that fanned out two `record` sub-jobs on queue kids and now waits. */
    async function waitingWorkflow(): Promise<{ parent: string; children: string[] }> {
      const parent = harness<{ id: string }>(h, [
        'enqueue',
        '--url',
        db.url,
        '--type',
        'fan-out',
        '--queue',
        'wf',
        '--args',
        JSON.stringify({ child_type: 'record', child_queue: 'kids', items: ITEMS }),
      ]).id;
      const { summary } = await runWorker(h, db.url, ['wf'], 0, 30, 1);
      expect(summary.waiting).toBe(1);
      expect((await readJob(db, parent))!.status).toBe('waiting');
      return { parent, children: await childrenOf(parent) };
    }

    it('a fan-out parent waits; its sub-jobs carry parent_job_id, root_job_id, fan_out_id, fan_out_index, and one fan_outs row counts them', async () => {
      const { parent, children } = await waitingWorkflow();
      expect(children).toHaveLength(2);
      const fanOuts = await db.query(`SELECT * FROM fan_outs WHERE parent_job_id = ${p(1)}`, [id16(parent)]);
      expect(fanOuts).toHaveLength(1);
      expect(fanOuts[0]).toMatchObject({
        total_count: 2,
        completed_count: 0,
        failed_count: 0,
        cancelled_count: 0,
        status: 'pending',
        strategy: 'collect_all',
      });
      for (const [i, child] of children.entries()) {
        const row = (await readJob(db, child))!;
        expect(row).toMatchObject({ status: 'pending', queue: 'kids', type: 'record', args: ITEMS[i] });
        expect([asId(row.raw.parent_job_id), asId(row.raw.root_job_id), asId(row.raw.fan_out_id), Number(row.raw.fan_out_index)]).toEqual([
          parent,
          parent,
          asId(fanOuts[0]!.id),
          i,
        ]);
      }
      // The parent's fan-out is itself a checkpoint (call_type 'fanout') naming the fan_outs row.
      expect(await count(`SELECT COUNT(*) AS n FROM checkpoints WHERE job_id = ${p(1)} AND call_type = 'fanout'`, [id16(parent)])).toBe(1);
    });

    it('DeleteJob refuses the workflow parent and a sub-job of a non-terminal parent; PurgeJobs skips both', async () => {
      const { parent, children } = await waitingWorkflow();
      expect(op('delete', parent).json.error).toBe(
        `jobs: cannot delete a workflow parent with child jobs; delete the workflow subtree instead (job ${parent})`,
      );
      expect(op('delete', children[0]!).json.error).toBe(
        `jobs: cannot delete a sub-job while its fan-out parent is not terminal (job ${children[0]})`,
      );
      expect(op('--queue', 'kids', '--status', 'pending', 'purge').json).toEqual({ ok: true, deleted: 0 });
      expect(op('--queue', 'wf', '--status', 'waiting', 'purge').json).toEqual({ ok: true, deleted: 0 });
      expect(await count('SELECT COUNT(*) AS n FROM jobs')).toBe(3);
    });

    it('CancelJob of the waiting parent cancels its sub-jobs and the fan-out in one go; DeleteWorkflowSubtree then removes every row of it', async () => {
      const { parent, children } = await waitingWorkflow();
      expect(op('cancel', parent).json).toEqual({ ok: true });
      expect((await readJob(db, parent))!.raw).toMatchObject({ status: 'cancelled', last_error: 'cancelled by user' });
      for (const child of children)
        expect((await readJob(db, child))!.raw).toMatchObject({ status: 'cancelled', last_error: 'cancelled by user' });
      expect((await db.query('SELECT status, cancelled_count FROM fan_outs'))[0]).toMatchObject({
        status: 'cancelled',
        cancelled_count: 2,
      });
      // Still a workflow parent for DeleteJob while its fan_outs row exists.
      expect(op('delete', parent).json.error).toMatch(/^jobs: cannot delete a workflow parent/);
      expect(op('delete-subtree', parent).json).toEqual({ ok: true });
      expect([
        await count('SELECT COUNT(*) AS n FROM jobs'),
        await count('SELECT COUNT(*) AS n FROM fan_outs'),
        await count('SELECT COUNT(*) AS n FROM checkpoints'),
      ]).toEqual([0, 0, 0]);
    });

    it('Requeue refuses a sub-job (replay via the parent); Requeue of the parent deletes its fan-out subtree and the worker re-runs the whole workflow', async () => {
      const { parent, children } = await waitingWorkflow();
      op('cancel', parent);
      expect(op('requeue', children[0]!).json.error).toBe('jobs: cannot requeue a fan-out sub-job directly; requeue its parent');
      expect(op('requeue', parent).json).toEqual({ ok: true, requeued: true });
      expect(await count('SELECT COUNT(*) AS n FROM jobs')).toBe(1);
      expect([await count('SELECT COUNT(*) AS n FROM fan_outs'), await count('SELECT COUNT(*) AS n FROM checkpoints')]).toEqual([0, 0]);

      const { runs } = await runWorker(h, db.url, ['wf', 'kids'], 3);
      expect(
        runs
          .filter((r) => r.handler === 'record')
          .map((r) => r.args)
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      ).toEqual(ITEMS);
      expect((await readJob(db, parent))!.status).toBe('completed');
      const fresh = await childrenOf(parent);
      expect(fresh).toHaveLength(2);
      expect(fresh.some((c) => children.includes(c))).toBe(false);
    });
  });
}
