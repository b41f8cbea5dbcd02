// The fan-out tree as a task family on rows written as Simple Durable Jobs writes them (the
// schema fixture; tests/sdj/family.int.test.ts runs the real library where its module is
// served): from the parent and from any sub-job, the fan-out counted from its own row, the
// waiting parent a failed sub-job holds back, and hostile rows (a parent cycle, a fan-out of
// thousands, ids that do not exist).
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sdjFamily } from '@/lib/brokers/sdj/family';
import { isConsoleError } from '@/lib/brokers/errors';
import { claim, deadLetter, fanOut, goEnqueue, idOf, q, uuidv7 } from './rows';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const queueName = () => `fam-${randomBytes(3).toString('hex')}`;

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ task family on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('reads the fan-out from the parent and from a sub-job, and the parent a failed sub-job holds back', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
      const { fanOutId, children } = await fanOut(db, parent, 3, qn);
      await deadLetter(db, children[1]!, 'boom');
      await q(db, 'UPDATE fan_outs SET completed_count = 1, failed_count = 1 WHERE id = ?', [idOf(db, fanOutId)]);

      const top = (await sdjFamily(s.store.db, parent, 100))!;
      expect(top.self).toMatchObject({ id: parent, status: 'waiting', state: 'waiting', link: 'task' });
      expect(top.children.map((c) => c.id)).toEqual(children);
      expect(top.groups).toEqual([
        expect.objectContaining({ id: fanOutId, kind: 'fan-out', total: 3, done: 2, failed: 1, members: children }),
      ]);
      expect(top.groups[0]!.callback?.id).toBe(parent);

      const f = (await sdjFamily(s.store.db, children[2]!, 100))!;
      expect(f.root?.id).toBe(parent);
      expect(f.parent?.id).toBe(parent);
      expect(f.members.map((m) => m.id)).toEqual([parent, ...children]);
      expect(f.blocks).toEqual([expect.objectContaining({ by: children[1], waiting: expect.objectContaining({ id: parent }) })]);
      expect(f.members.find((m) => m.id === children[1])).toMatchObject({ status: 'dead', link: 'dead' });
    });

    it('caps a fan-out of thousands at the limit and says there are at least that many', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
      const { children } = await fanOut(db, parent, 1200, qn);
      const t0 = Date.now();
      const f = (await sdjFamily(s.store.db, children[700]!, 200))!;
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(f.members).toHaveLength(200);
      expect(f.capped).toBe(true);
      expect(f.groups[0]).toMatchObject({ total: 1200, done: 0 });
    }, 120_000);

    it('stops at a cycle in parent ids and names it', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const a = await goEnqueue(db, { queue: qn });
      const b = await goEnqueue(db, { queue: qn });
      // Hostile rows: each names the other as its parent (the library never writes this).
      await q(db, 'UPDATE jobs SET parent_job_id = ? WHERE id = ?', [idOf(db, b), idOf(db, a)]);
      await q(db, 'UPDATE jobs SET parent_job_id = ? WHERE id = ?', [idOf(db, a), idOf(db, b)]);
      const f = (await sdjFamily(s.store.db, a, 50))!;
      expect(f.cycle).toEqual([a, b, a]);
      expect(f.members.map((m) => m.id).sort()).toEqual([a, b].sort());
    });

    it('answers null for a UUID no job has, and refuses an id that is not a UUID', async () => {
      s = await freshSdj(dialect);
      expect(await sdjFamily(s.store.db, uuidv7(), 10)).toBeNull();
      const err = await sdjFamily(s.store.db, "x' OR 1=1 --", 10).catch((e: unknown) => e);
      expect(isConsoleError(err) && err.code).toBe('InvalidInput');
    });
  });
}

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ delete a workflow with its subtree on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it("deletes the workflow and every sub-job through the adapter, and keeps the library's guard", async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const a = createSdjAdapter({ id: 'sdj', name: 'SDJ', url: db.url, readOnly: false, options: { lockWaitMs: 300 } }, adapterContext());
      try {
        const qn = queueName();
        const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
        const { children } = await fanOut(db, parent, 3, qn);
        // A sub-job a worker holds: the whole delete is refused, nothing goes.
        await claim(db, children[0]!);
        const refused = await a.deleteFamily!(parent);
        expect(refused.failed).toEqual([expect.objectContaining({ id: parent, outcome: 'running' })]);
        expect(await q(db, 'SELECT id FROM jobs WHERE parent_job_id = ?', [idOf(db, parent)])).toHaveLength(3);
        // Once nothing runs: the workflow, its sub-jobs and its fan-out go, one outcome for the id.
        await q(db, "UPDATE jobs SET status = 'cancelled', locked_by = NULL");
        const r = await a.deleteFamily!(parent);
        expect(r.succeeded).toEqual([expect.objectContaining({ id: parent, message: 'deleted with 3 sub-job(s) of its workflow' })]);
        expect(await q(db, 'SELECT id FROM jobs')).toEqual([]);
        expect(await q(db, 'SELECT id FROM fan_outs')).toEqual([]);
        expect((await a.deleteFamily!(parent)).failed[0]).toMatchObject({ outcome: 'missing' });
      } finally {
        await a.close();
      }
    });
  });
}
