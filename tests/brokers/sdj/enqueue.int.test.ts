// Enqueue through the library's documented raw-SQL contract: exactly the columns it names, the
// id as each schema stores it, args as JSON bytes, run_at for a delayed job; unique jobs and
// payload-codec deployments refused with the contract's reasons.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEC_REFUSED, enqueueJob, UNIQUE_REFUSED } from '@/lib/brokers/sdj/enqueue';
import { readJob } from '@/tests/sdj/jobs-table';
import { goEnqueue, idOf, q } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const queueName = () => `eq-${randomBytes(3).toString('hex')}`;
const LIBRARY_OWNED = [
  'locked_by',
  'locked_until',
  'last_heartbeat_at',
  'started_at',
  'completed_at',
  'last_error',
  'dead_lettered_at',
  'dead_letter_reason',
  'previous_status',
  'parent_job_id',
  'root_job_id',
  'fan_out_id',
  'result',
  'trace_context',
  'unique_key',
  'tenant',
  'metadata',
];

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ enqueue on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('inserts only the contract columns: pending, attempt 0, library-owned columns NULL, args as JSON bytes', async () => {
      s = await freshSdj(dialect);
      const qn = queueName();
      const { id, sql } = await enqueueJob(s.store, {
        type: 'record',
        queue: qn,
        args: { to: 'ü@example', n: [1, 2] },
        priority: 5,
        maxRetries: 4,
      });
      expect(sql).toMatch(
        /^INSERT INTO jobs \(id, type, args, queue, priority, status, attempt, max_retries, timeout, determinism, run_at, created_at, updated_at\)/,
      );
      const job = (await readJob(s.db, id))!;
      expect(job).toMatchObject({
        id,
        type: 'record',
        queue: qn,
        status: 'pending',
        priority: 5,
        attempt: 0,
        max_retries: 4,
        args: { to: 'ü@example', n: [1, 2] },
      });
      for (const c of LIBRARY_OWNED) expect(job.raw[c], c).toBeNull();
      expect(Boolean(job.raw.dq_ready)).toBe(true);
      expect(Number(job.raw.fan_out_index)).toBe(0);
      expect(job.raw.run_at).toBeNull();
      expect(job.raw.created_at).not.toBeNull();
      expect(Buffer.isBuffer(job.raw.args)).toBe(true);
      if (dialect === 'mysql') expect((job.raw.id as Buffer).length).toBe(16);
    });

    it('stores run_at for a delayed job', async () => {
      s = await freshSdj(dialect);
      const { id } = await enqueueJob(s.store, { type: 'record', queue: queueName(), args: null, runAt: '2030-05-06T07:08:09.123Z' });
      const r = (await readJob(s.db, id))!.raw;
      expect(new Date(r.run_at as string | Date).toISOString()).toBe('2030-05-06T07:08:09.123Z');
    });

    it("refuses a unique key with the contract's reason", async () => {
      s = await freshSdj(dialect);
      const qn = queueName();
      await expect(enqueueJob(s.store, { type: 'record', queue: qn, args: {}, uniqueKey: 'k' })).rejects.toThrow(UNIQUE_REFUSED);
      expect(await q(s.db, 'SELECT id FROM jobs WHERE queue = ?', [qn])).toHaveLength(0);
    });

    it('refuses a queue whose recent jobs carry encrypted payloads', async () => {
      s = await freshSdj(dialect);
      const qn = queueName();
      const enc = await goEnqueue(s.db, { queue: qn });
      await q(s.db, 'UPDATE jobs SET args = ? WHERE id = ?', [Buffer.from('sdjenc:abc'), idOf(s.db, enc)]);
      await expect(enqueueJob(s.store, { type: 'record', queue: qn, args: {} })).rejects.toThrow(CODEC_REFUSED);
    });

    it('names the field of a bad input and refuses on an unverified schema', async () => {
      s = await freshSdj(dialect);
      await expect(enqueueJob(s.store, { type: '', queue: 'q', args: {}, maxRetries: -1 })).rejects.toMatchObject({
        code: 'InvalidInput',
        fields: { type: 'type must not be empty', maxRetries: 'maxRetries must be 0 or more' },
      });
      await s.done();
      s = await freshSdj(dialect, { ledger: 'newer' });
      await expect(enqueueJob(s.store, { type: 'record', queue: 'q', args: {} })).rejects.toMatchObject({ code: 'ReadOnly' });
    });
  });
}
