// Replay (the library's Requeue / RetryJob) through the store: what it clears and keeps, its
// fan-out and sub-job rules, per-id outcomes, the unique-key conflict, the schema gate, and the
// races: two consoles replaying one letter, and a worker holding the row.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { requeueJobs } from '@/lib/brokers/sdj/requeue';
import { openSdjStore } from '@/lib/brokers/sdj/store';
import { readJob } from '@/tests/sdj/jobs-table';
import { holdRow } from './hold';
import { addCheckpoint, claim, fanOut, goEnqueue, idOf, makeDeadLetter, q } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const queueName = () => `rq-${randomBytes(3).toString('hex')}`;
const count = async (s: Sdj, sql: string, p: unknown[] = []) => Number(Object.values((await q(s.db, sql, p))[0]!)[0]);

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ replay on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('puts a dead letter back to pending as Requeue does: execution columns cleared, args, unique key and heartbeat kept', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const id = await makeDeadLetter(db, { queue: queueName(), args: { order: 7 }, uniqueKey: 'order-7', error: 'boom' });
      await q(db, "UPDATE jobs SET last_heartbeat_at = NOW(), previous_status = 'waiting', result = ? WHERE id = ?", [
        Buffer.from('{"r":1}'),
        idOf(db, id),
      ]);
      await addCheckpoint(db, id, 1, 'call', { step: 1 });
      const before = (await readJob(db, id))!;

      expect(await requeueJobs(s.store, [id])).toEqual([{ id, outcome: 'ok', message: expect.stringContaining('pending') }]);
      const after = (await readJob(db, id))!;
      expect(after).toMatchObject({ status: 'pending', attempt: 0, args: { order: 7 }, max_retries: 2 });
      const r = after.raw;
      expect([r.last_error, r.dead_letter_reason, r.locked_by]).toEqual(['', '', '']);
      for (const c of ['dead_lettered_at', 'result', 'locked_until', 'started_at', 'completed_at', 'run_at']) expect(r[c], c).toBeNull();
      expect(Boolean(r.dq_ready)).toBe(true);
      expect(r.unique_key).toBe('order-7');
      expect(r.previous_status).toBe('waiting');
      expect(r.last_heartbeat_at).toEqual(before.raw.last_heartbeat_at);
      expect(await count(s, 'SELECT COUNT(*) FROM checkpoints WHERE job_id = ?', [idOf(db, id)])).toBe(0);
    });

    it('deletes the fan-out subtree of a replayed workflow parent and refuses its sub-jobs', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
      await claim(db, parent);
      const { children } = await fanOut(db, parent, 2, qn);
      await addCheckpoint(db, children[0]!, 0, 'call', {});
      await q(db, "UPDATE jobs SET status = 'failed' WHERE id = ?", [idOf(db, children[1]!)]);
      const [sub] = await requeueJobs(s.store, [children[1]!]);
      expect(sub).toMatchObject({ outcome: 'invalid', message: expect.stringContaining('requeue its parent') });
      await q(db, "UPDATE jobs SET status = 'failed', dead_lettered_at = NOW() WHERE id = ?", [idOf(db, parent)]);

      expect((await requeueJobs(s.store, [parent]))[0]!.outcome).toBe('ok');
      expect(await count(s, 'SELECT COUNT(*) FROM jobs')).toBe(1);
      expect(await count(s, 'SELECT COUNT(*) FROM fan_outs')).toBe(0);
      expect(await count(s, 'SELECT COUNT(*) FROM checkpoints')).toBe(0);
    });

    it('answers each id: missing, running, already pending, completed, not an id, cancelled replayed', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const running = await goEnqueue(db, { queue: qn });
      await claim(db, running, 'host-b:9');
      const pending = await goEnqueue(db, { queue: qn });
      const done = await goEnqueue(db, { queue: qn, status: 'completed' });
      const cancelled = await goEnqueue(db, { queue: qn, status: 'cancelled' });
      const missing = '0190f0e0-0000-7000-8000-000000000001';
      const got = await requeueJobs(s.store, [missing, running, pending, done, 'nope', cancelled]);
      expect(got.map((o) => o.outcome)).toEqual(['missing', 'running', 'already', 'invalid', 'invalid', 'ok']);
      expect(got[1]!.message).toContain('host-b:9');
      expect(got[3]!.message).toBe('cannot retry job with status "completed"');
      expect((await readJob(db, running))!.status).toBe('running');
    });

    it('refuses a replay whose unique key a live job holds now, naming the key, and changes nothing', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const letter = await makeDeadLetter(db, { queue: qn, uniqueKey: 'invoice-42' });
      await goEnqueue(db, { queue: qn, uniqueKey: 'invoice-42' });
      const [o] = await requeueJobs(s.store, [letter]);
      expect(o).toMatchObject({ outcome: 'conflict', message: expect.stringContaining('"invoice-42"') });
      expect((await readJob(db, letter))!.raw.dead_lettered_at).not.toBeNull();
    });

    it('refuses every write on a schema it was not verified against', async () => {
      s = await freshSdj(dialect, { ledger: 'newer' });
      const letter = await makeDeadLetter(s.db, { queue: queueName() });
      await expect(requeueJobs(s.store, [letter])).rejects.toMatchObject({ code: 'ReadOnly' });
      expect((await readJob(s.db, letter))!.status).toBe('failed');
    });

    it('replays a letter once when two consoles replay it at the same moment', async () => {
      s = await freshSdj(dialect);
      const letter = await makeDeadLetter(s.db, { queue: queueName() });
      const a = await openSdjStore(s.db.url, { lockWaitMs: 10_000 });
      const b = await openSdjStore(s.db.url, { lockWaitMs: 10_000 });
      try {
        const got = await Promise.all([requeueJobs(a, [letter]), requeueJobs(b, [letter])]);
        expect(got.map((o) => o[0]!.outcome).sort()).toEqual(['already', 'ok']);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('refuses a letter a worker holds with FOR UPDATE and leaves it untouched', async () => {
      s = await freshSdj(dialect);
      const letter = await makeDeadLetter(s.db, { queue: queueName() });
      const before = (await readJob(s.db, letter))!.raw;
      const release = await holdRow(s.db, letter);
      try {
        const [o] = await requeueJobs(s.store, [letter]);
        expect(o).toMatchObject({ outcome: 'conflict', message: expect.stringContaining('another transaction holds this job') });
      } finally {
        await release();
      }
      expect((await readJob(s.db, letter))!.raw).toEqual(before);
    });
  });
}
