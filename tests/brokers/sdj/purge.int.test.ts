// Purge (PurgeJobs) through the store: one queue and status, checkpoints and unique locks with
// the rows, fan-out parents and sub-jobs of a live parent kept, rows a worker holds skipped.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { purgeJobs } from '@/lib/brokers/sdj/purge';
import { holdRow } from './hold';
import { addCheckpoint, fanOut, goEnqueue, idOf, makeDeadLetter, q } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const queueName = () => `pg-${randomBytes(3).toString('hex')}`;
const count = async (s: Sdj, sql: string, p: unknown[] = []) => Number(Object.values((await q(s.db, sql, p))[0]!)[0]);

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ purge on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('purges one queue and status with their checkpoints and unique locks, and nothing else', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const other = queueName();
      const a = await makeDeadLetter(db, { queue: qn });
      await makeDeadLetter(db, { queue: qn });
      await addCheckpoint(db, a, 0, 'call', {});
      await q(db, "INSERT INTO unique_locks (scope_hash, job_id, expires_at) VALUES ('h1', ?, NOW())", [idOf(db, a)]);
      await makeDeadLetter(db, { queue: other });
      await goEnqueue(db, { queue: qn });
      expect(await purgeJobs(s.store, { queue: qn, status: 'failed' })).toEqual({ deleted: 2 });
      expect(await count(s, 'SELECT COUNT(*) FROM jobs')).toBe(2);
      expect(await count(s, 'SELECT COUNT(*) FROM checkpoints')).toBe(0);
      expect(await count(s, 'SELECT COUNT(*) FROM unique_locks')).toBe(0);
      await expect(purgeJobs(s.store, { queue: qn, status: 'running' })).rejects.toThrow(/^status: /);
    });

    it('keeps fan-out parents and the sub-jobs of a live parent, and skips rows a worker holds', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out' });
      await fanOut(db, parent, 2, qn);
      expect(await purgeJobs(s.store, { queue: qn, status: 'pending' })).toEqual({ deleted: 0 });
      const held = await goEnqueue(db, { queue: qn, status: 'completed' });
      await goEnqueue(db, { queue: qn, status: 'completed' });
      const release = await holdRow(db, held);
      try {
        expect(await purgeJobs(s.store, { queue: qn, status: 'completed' })).toEqual({ deleted: 1 });
      } finally {
        await release();
      }
      expect(await count(s, 'SELECT COUNT(*) FROM jobs WHERE id = ?', [idOf(db, held)])).toBe(1);
      expect(await count(s, 'SELECT COUNT(*) FROM jobs')).toBe(4);
    });
  });
}
