// Delete (DeleteJob / DeleteWorkflowSubtree with the fan-out guards) and queue pause/resume
// (queue_states) through the store.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteJobs } from '@/lib/brokers/sdj/delete';
import { readOverview } from '@/lib/brokers/sdj/overview';
import { pauseQueue, resumeQueue } from '@/lib/brokers/sdj/queue-pause';
import { addCheckpoint, claim, fanOut, goEnqueue, idOf, makeDeadLetter, q } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const queueName = () => `dp-${randomBytes(3).toString('hex')}`;
const count = async (s: Sdj, table: string) => Number(Object.values((await q(s.db, `SELECT COUNT(*) FROM ${table}`))[0]!)[0]);

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ delete and pause on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('deletes a job with its checkpoints; refuses running jobs, live sub-jobs and parents without their subtree', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const letter = await makeDeadLetter(db, { queue: qn });
      await addCheckpoint(db, letter, 0, 'call', {});
      const running = await goEnqueue(db, { queue: qn });
      await claim(db, running);
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
      const { children } = await fanOut(db, parent, 2, qn);
      const got = await deleteJobs(s.store, [letter, running, parent, children[0]!, letter]);
      expect(got.map((o) => o.outcome)).toEqual(['ok', 'running', 'invalid', 'invalid', 'missing']);
      expect(await count(s, 'jobs')).toBe(4);
      expect(await q(db, 'SELECT job_id FROM checkpoints WHERE job_id = ?', [idOf(db, letter)])).toHaveLength(0);
    });

    it('deletes a finished workflow with its subtree, leaving no fan-outs, children or checkpoints', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
      const { children } = await fanOut(db, parent, 2, qn);
      await addCheckpoint(db, children[0]!, 0, 'call', {});
      await q(db, "UPDATE jobs SET status = 'cancelled'");
      const [o] = await deleteJobs(s.store, [parent], { subtree: true });
      expect(o).toMatchObject({ outcome: 'ok', message: 'deleted with 2 sub-job(s) of its workflow' });
      for (const t of ['jobs', 'fan_outs', 'checkpoints']) expect(await count(s, t), t).toBe(0);
    });

    it('pauses and resumes a queue through queue_states, once each', async () => {
      s = await freshSdj(dialect);
      const qn = queueName();
      await goEnqueue(s.db, { queue: qn });
      expect((await pauseQueue(s.store, qn)).outcome).toBe('ok');
      expect((await pauseQueue(s.store, qn)).outcome).toBe('already');
      expect((await readOverview(s.store.db)).queues.find((x) => x.queue === qn)).toMatchObject({ paused: true, counts: { pending: 1 } });
      expect((await resumeQueue(s.store, qn)).outcome).toBe('ok');
      expect((await resumeQueue(s.store, qn)).outcome).toBe('already');
      const [row] = await q(s.db, 'SELECT paused, paused_at FROM queue_states WHERE queue = ?', [qn]);
      expect([Boolean(row!.paused), row!.paused_at]).toEqual([false, null]);
      expect((await pauseQueue(s.store, qn)).outcome).toBe('ok');
    });
  });
}
