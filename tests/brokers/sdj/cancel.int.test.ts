// Cancel (the library's CancelJob → CancelJobTerminal) through the store: the row it leaves, a
// waiting workflow parent with its sub-jobs, a sub-job's fan-out counters, per-id outcomes, and
// a row a worker holds.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { cancelJobs } from '@/lib/brokers/sdj/cancel';
import { openSdjStore } from '@/lib/brokers/sdj/store';
import { readJob } from '@/tests/sdj/jobs-table';
import { holdRow } from './hold';
import { claim, fanOut, goEnqueue, idOf, makeDeadLetter, q } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const queueName = () => `cx-${randomBytes(3).toString('hex')}`;

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ cancel on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('cancels a pending job as CancelJob does and frees its concurrency slots', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const id = await goEnqueue(db, { queue: queueName() });
      await q(db, "INSERT INTO concurrency_slots (slot_name, job_id, worker_id, expires_at) VALUES ('s', ?, 'w', NOW())", [idOf(db, id)]);
      expect(await cancelJobs(s.store, [id])).toEqual([{ id, outcome: 'ok', message: 'cancelled' }]);
      const r = (await readJob(db, id))!.raw;
      expect(r).toMatchObject({ status: 'cancelled', last_error: 'cancelled by user', dead_lettered_at: null, locked_by: '' });
      expect(r.completed_at).not.toBeNull();
      expect(await q(db, 'SELECT * FROM concurrency_slots')).toHaveLength(0);
    });

    it('cancels a waiting workflow parent with its live sub-jobs and marks the fan-out cancelled', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
      await claim(db, parent);
      const { fanOutId, children } = await fanOut(db, parent, 2, qn);
      const [o] = await cancelJobs(s.store, [parent]);
      expect(o).toMatchObject({ outcome: 'ok', message: 'cancelled, with 2 live sub-job(s) of its fan-outs' });
      for (const c of children) expect((await readJob(db, c))!.raw).toMatchObject({ status: 'cancelled', last_error: 'cancelled by user' });
      const [f] = await q(db, 'SELECT status, cancelled_count, completed_count FROM fan_outs WHERE id = ?', [idOf(db, fanOutId)]);
      expect(f).toMatchObject({ status: 'cancelled' });
      expect(Number(f!.cancelled_count)).toBe(2);
    });

    it("reconciles a cancelled sub-job's fan-out counters and leaves the fan-out pending", async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
      const { fanOutId, children } = await fanOut(db, parent, 3, qn);
      await q(db, "UPDATE jobs SET status = 'completed' WHERE id = ?", [idOf(db, children[2]!)]);
      expect((await cancelJobs(s.store, [children[0]!]))[0]!.outcome).toBe('ok');
      const [f] = await q(db, 'SELECT status, cancelled_count, completed_count FROM fan_outs WHERE id = ?', [idOf(db, fanOutId)]);
      expect([f!.status, Number(f!.cancelled_count), Number(f!.completed_count)]).toEqual(['pending', 1, 1]);
      expect((await readJob(db, children[1]!))!.status).toBe('pending');
    });

    it('answers each id: running refused, failed not cancellable, cancelled already, missing', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const running = await goEnqueue(db, { queue: qn });
      await claim(db, running);
      const failed = await makeDeadLetter(db, { queue: qn });
      const paused = await goEnqueue(db, { queue: qn, status: 'paused' });
      const cancelled = await goEnqueue(db, { queue: qn, status: 'cancelled' });
      const got = await cancelJobs(s.store, [running, failed, paused, cancelled, '0190f0e0-0000-7000-8000-000000000002']);
      expect(got.map((o) => o.outcome)).toEqual(['running', 'invalid', 'invalid', 'already', 'missing']);
      expect(got[1]!.message).toBe('a failed job is not cancellable');
      expect((await readJob(db, running))!.status).toBe('running');
    });

    it('cancels once when two consoles cancel the same job at the same moment', async () => {
      s = await freshSdj(dialect);
      const id = await goEnqueue(s.db, { queue: queueName() });
      const a = await openSdjStore(s.db.url, { lockWaitMs: 10_000 });
      const b = await openSdjStore(s.db.url, { lockWaitMs: 10_000 });
      try {
        const got = await Promise.all([cancelJobs(a, [id]), cancelJobs(b, [id])]);
        expect(got.map((o) => o[0]!.outcome).sort()).toEqual(['already', 'ok']);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('refuses a job a worker holds with FOR UPDATE and leaves it untouched', async () => {
      s = await freshSdj(dialect);
      const id = await goEnqueue(s.db, { queue: queueName() });
      const before = (await readJob(s.db, id))!.raw;
      const release = await holdRow(s.db, id);
      try {
        expect((await cancelJobs(s.store, [id]))[0]!.outcome).toBe('conflict');
      } finally {
        await release();
      }
      expect((await readJob(s.db, id))!.raw).toEqual(before);
    });
  });
}
