// The enqueue action on the raw-SQL contract, as the adapter offers it: the form's fields read
// by SDJ's schema, the preview showing the exact statement and values (nothing written), the
// write running that statement, and the contract's refusals under the form's field names.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEC_REFUSED, ENQUEUE_SQL, UNIQUE_REFUSED } from '@/lib/brokers/sdj/enqueue';
import { enqueueSdj, previewEnqueueSdj } from '@/lib/brokers/sdj/enqueue-contract';
import type { EnqueueRequest } from '@/lib/brokers/schema';
import { readJob } from '@/tests/sdj/jobs-table';
import { goEnqueue, idOf, q } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const queueName = () => `ec-${randomBytes(3).toString('hex')}`;
const B = 'sdj-1';
const rowsIn = async (s: Sdj, queue: string) => (await q(s.db, 'SELECT id FROM jobs WHERE queue = ?', [queue])).length;
const COMPARED = ['type', 'args', 'queue', 'priority', 'status', 'attempt', 'max_retries', 'timeout', 'determinism', 'run_at'];
const COMPARED_NULL = ['locked_by', 'locked_until', 'last_error', 'dead_lettered_at', 'unique_key', 'tenant', 'metadata', 'fan_out_id'];
const withoutId = (payload: string) => payload.replace(/^-- \S+ id = .*$/m, '-- id');

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ enqueue action on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('previews the exact statement and values, writes nothing, and the enqueue runs that statement', async () => {
      s = await freshSdj(dialect);
      const queue = queueName();
      const req: EnqueueRequest = {
        task: 'send-invoice',
        queue,
        fields: {
          args: '{"invoice": 12345678901234567891, "to": "ü"}',
          priority: '7',
          max_retries: '5',
          run_at: '2030-05-06T09:08:09.5+02:00',
        },
      };
      const p = await previewEnqueueSdj(s.store, B, req);
      expect(p).toMatchObject({ brokerId: B, preview: true, queue, task: 'send-invoice', state: 'pending', command: null });
      expect(p.payload.startsWith(`${ENQUEUE_SQL[dialect]};\n`)).toBe(true);
      expect(p.payload).toContain('"{\\"invoice\\": 12345678901234567891, \\"to\\": \\"ü\\"}"');
      expect(p.payload).toContain('"2030-05-06T07:08:09.500Z"');
      expect(await rowsIn(s, queue)).toBe(0);

      const r = await enqueueSdj(s.store, B, req);
      expect(r).toMatchObject({ brokerId: B, queue, task: 'send-invoice', state: 'pending' });
      expect(withoutId(r.payload)).toBe(withoutId(p.payload));
      const job = (await readJob(s.db, r.id))!;
      expect(job).toMatchObject({ status: 'pending', attempt: 0, priority: 7, max_retries: 5, type: 'send-invoice', queue });
      expect((job.raw.args as Buffer).toString('utf8')).toBe('{"invoice": 12345678901234567891, "to": "ü"}');
      expect(new Date(job.raw.run_at as string | Date).toISOString()).toBe('2030-05-06T07:08:09.500Z');
      if (dialect === 'mysql') expect(job.raw.id).toEqual(idOf(s.db, r.id));

      // The preview's statement run by hand with the values it lists writes the same row.
      const twin = randomUUID();
      const args = Buffer.from('{"invoice": 12345678901234567891, "to": "ü"}', 'utf8');
      await s.db.query(p.payload.slice(0, p.payload.indexOf(';\n')), [
        idOf(s.db, twin),
        'send-invoice',
        args,
        queue,
        7,
        5,
        new Date('2030-05-06T07:08:09.500Z'),
      ]);
      const same = (await readJob(s.db, twin))!.raw;
      for (const c of COMPARED) expect(job.raw[c], c).toEqual(same[c]);
      for (const c of COMPARED_NULL) expect([c, job.raw[c], same[c]]).toEqual([c, null, null]);
    });

    it('runs a delayed job later by run_at and a plain one with run_at NULL, both pending', async () => {
      s = await freshSdj(dialect);
      const queue = queueName();
      const before = Date.now();
      const later = await enqueueSdj(s.store, B, { task: 't', queue, fields: { delay: '600' } });
      const now = await enqueueSdj(s.store, B, { task: 't', queue, fields: {} });
      const runAt = new Date((await readJob(s.db, later.id))!.raw.run_at as string | Date).getTime();
      expect(runAt).toBeGreaterThanOrEqual(before + 600_000);
      expect(runAt).toBeLessThan(before + 660_000);
      const plain = (await readJob(s.db, now.id))!;
      expect(plain.raw.run_at).toBeNull();
      expect(plain).toMatchObject({ status: 'pending', attempt: 0, max_retries: 3, priority: 0, args: {} });
      expect([later.state, now.state]).toEqual(['pending', 'pending']);
    });

    it("refuses a unique key with the contract's reason under its field, preview and write, writing nothing", async () => {
      s = await freshSdj(dialect);
      const queue = queueName();
      const req = { task: 't', queue, fields: { unique_key: 'order-7' } };
      for (const call of [previewEnqueueSdj, enqueueSdj])
        await expect(call(s.store, B, req)).rejects.toMatchObject({ code: 'InvalidInput', fields: { unique_key: UNIQUE_REFUSED } });
      expect(await rowsIn(s, queue)).toBe(0);
    });

    it('names each bad field and writes nothing', async () => {
      s = await freshSdj(dialect);
      const queue = queueName();
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ args: '[1]' }, 'args'],
        [{ priority: 'high' }, 'priority'],
        [{ max_retries: '-2' }, 'max_retries'],
        [{ run_at: 'next week' }, 'run_at'],
        [{ kwargs: '{}' }, 'kwargs'],
      ];
      for (const [fields, key] of bad)
        for (const call of [previewEnqueueSdj, enqueueSdj]) {
          const e = await call(s.store, B, { task: 't', queue, fields }).catch((x: unknown) => x);
          expect(e, key).toMatchObject({ code: 'InvalidInput' });
          expect(Object.keys((e as { fields: object }).fields)).toEqual([key]);
        }
      expect(await rowsIn(s, queue)).toBe(0);
    });

    it('refuses a queue whose jobs carry encrypted payloads, and a schema it was not verified against', async () => {
      s = await freshSdj(dialect);
      const queue = queueName();
      const enc = await goEnqueue(s.db, { queue });
      await q(s.db, 'UPDATE jobs SET args = ? WHERE id = ?', [Buffer.from('sdjenc:v1:abc'), idOf(s.db, enc)]);
      for (const call of [previewEnqueueSdj, enqueueSdj])
        await expect(call(s.store, B, { task: 't', queue, fields: {} })).rejects.toMatchObject({
          code: 'Unsupported',
          message: CODEC_REFUSED,
        });
      expect(await rowsIn(s, queue)).toBe(1);
      await s.done();
      s = await freshSdj(dialect, { ledger: 'newer' });
      for (const call of [previewEnqueueSdj, enqueueSdj])
        await expect(call(s.store, B, { task: 't', queue, fields: {} })).rejects.toMatchObject({ code: 'ReadOnly' });
      expect(await rowsIn(s, queue)).toBe(0);
    });
  });
}
