// Edit and replay a dead letter: Requeue with the edited args, queue and priority written in the
// same transaction under the row lock. What the row holds afterwards (plain SQL), what the
// preview says and does not write, the refusals (encrypted args, a codec queue, a sub-job, bad
// values), and the races: two consoles at once, a worker holding the row, a unique key taken.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_ARGS } from '@/lib/brokers/sdj/edit-args';
import { previewReplayEditedSdj, replayEditedSdj, SDJ_REPLAY_EDITED } from '@/lib/brokers/sdj/edit-replay';
import { openSdjStore } from '@/lib/brokers/sdj/store';
import type { ReplayEditInput } from '@/lib/brokers/schema-edit';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { readJob } from '@/tests/sdj/jobs-table';
import { holdRow } from './hold';
import { addCheckpoint, claim, fanOut, goEnqueue, idOf, makeDeadLetter, q } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const queueName = () => `er-${randomBytes(3).toString('hex')}`;
const B = 'sdj-1';
const count = async (s: Sdj, sql: string, p: unknown[] = []) => Number(Object.values((await q(s.db, sql, p))[0]!)[0]);
/** The row as stored (readJob would parse args as JSON, which ciphertext is not). */
const rowOf = async (s: Sdj, id: string) => (await q(s.db, 'SELECT * FROM jobs WHERE id = ?', [idOf(s.db, id)]))[0]!;
const argsText = async (s: Sdj, id: string) => ((await rowOf(s, id)).args as Buffer).toString('utf8');
const kw = (...e: Array<[string, TypedValue]>) => e;
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ edit and replay on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('writes the edited args, queue and priority and requeues the row as Requeue does, same id; the preview writes nothing', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const from = queueName();
      const to = queueName();
      const id = await makeDeadLetter(db, { queue: from, args: { order: 7, note: 'old' }, uniqueKey: 'order-7', maxRetries: 4 });
      await addCheckpoint(db, id, 1, 'call', { step: 1 });
      const before = (await readJob(db, id))!.raw;
      const edit: ReplayEditInput = {
        kwargs: kw(['order', { t: 'int', v: '9007199254740993' }], ['note', { t: 'str', v: 'new' }]),
        queue: to,
        priority: 3,
      };

      const p = await previewReplayEditedSdj(s.store, B, id, edit);
      expect(p).toMatchObject({ brokerId: B, id, newId: id, sameId: true, does: SDJ_REPLAY_EDITED.does });
      expect(p.before).toBe(`{"type":"record","queue":"${from}","priority":0,"args":{"order":7,"note":"old"}}`);
      expect(p.after).toBe(`{"type":"record","queue":"${to}","priority":3,"args":{"order":9007199254740993,"note":"new"}}`);
      expect((await readJob(db, id))!.raw).toEqual(before);

      const r = await replayEditedSdj(s.store, B, id, edit);
      expect(r).toMatchObject({ ...p, outcome: { id, outcome: 'ok', message: expect.stringContaining('your edits') } });
      const after = (await readJob(db, id))!;
      expect(after).toMatchObject({ status: 'pending', attempt: 0, queue: to, priority: 3, type: 'record', max_retries: 4 });
      expect(await argsText(s, id)).toBe('{"order":9007199254740993,"note":"new"}');
      const row = after.raw;
      expect([row.last_error, row.dead_letter_reason, row.locked_by, row.unique_key]).toEqual(['', '', '', 'order-7']);
      for (const c of ['dead_lettered_at', 'result', 'locked_until', 'started_at', 'completed_at', 'run_at']) expect(row[c], c).toBeNull();
      expect(await count(s, 'SELECT COUNT(*) FROM checkpoints WHERE job_id = ?', [idOf(db, id)])).toBe(0);
      // The letter is no longer there to replay: a second edit-replay is NotFound, never a second replay.
      expect(await errorOf(replayEditedSdj(s.store, B, id, edit))).toMatchObject({ code: 'NotFound' });
    });

    it('keeps the stored args byte for byte when only queue or priority change, encrypted ones too', async () => {
      s = await freshSdj(dialect);
      const id = await makeDeadLetter(s.db, { queue: queueName() });
      await q(s.db, 'UPDATE jobs SET args = ? WHERE id = ?', [Buffer.from('sdjenc:v1:Zm9v'), idOf(s.db, id)]);
      const r = await replayEditedSdj(s.store, B, id, { priority: -2 });
      expect(r.outcome.outcome).toBe('ok');
      expect(await argsText(s, id)).toBe('sdjenc:v1:Zm9v');
      expect(await rowOf(s, id)).toMatchObject({ status: 'pending', priority: -2 });
    });

    it('refuses to edit encrypted args, or to write plain args into a queue whose jobs are encrypted, changing nothing', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const enc = await makeDeadLetter(db, { queue: queueName() });
      await q(db, 'UPDATE jobs SET args = ? WHERE id = ?', [Buffer.from('sdjenc:v1:Zm9v'), idOf(db, enc)]);
      const edit = { kwargs: kw(['n', { t: 'int', v: '2' }]) };
      for (const call of [previewReplayEditedSdj, replayEditedSdj])
        expect(await errorOf(call(s.store, B, enc, edit))).toMatchObject({
          code: 'InvalidInput',
          fields: { kwargs: expect.stringContaining('payload codec') },
        });
      const codecQueue = queueName();
      const other = await goEnqueue(db, { queue: codecQueue });
      await q(db, 'UPDATE jobs SET args = ? WHERE id = ?', [Buffer.from('sdjenc:v1:YmFy'), idOf(db, other)]);
      const plain = await makeDeadLetter(db, { queue: queueName(), args: { n: 1 } });
      const before = (await readJob(db, plain))!.raw;
      expect(await errorOf(previewReplayEditedSdj(s.store, B, plain, { ...edit, queue: codecQueue }))).toMatchObject({
        code: 'Unsupported',
        message: expect.stringContaining('encrypts payloads'),
      });
      const r = await replayEditedSdj(s.store, B, plain, { ...edit, queue: codecQueue });
      expect(r.outcome).toMatchObject({ outcome: 'invalid', message: expect.stringContaining('encrypts payloads') });
      expect((await readJob(db, plain))!.raw).toEqual(before);
      expect((await rowOf(s, enc)).status).toBe('failed');
    });

    it('refuses a fan-out sub-job as Requeue does, and clears a replayed parent’s subtree', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out', args: { batch: 1 } });
      await claim(db, parent);
      const { children } = await fanOut(db, parent, 2, qn);
      await q(db, "UPDATE jobs SET status = 'failed', dead_lettered_at = NOW() WHERE id = ?", [idOf(db, children[0]!)]);
      expect(await errorOf(previewReplayEditedSdj(s.store, B, children[0]!, { priority: 1 }))).toMatchObject({
        code: 'Unsupported',
        message: expect.stringContaining('requeue its parent'),
      });
      const sub = await replayEditedSdj(s.store, B, children[0]!, { priority: 1 });
      expect(sub.outcome).toMatchObject({ outcome: 'invalid', message: expect.stringContaining('requeue its parent') });
      expect((await readJob(db, children[0]!))!).toMatchObject({ status: 'failed', priority: 0 });

      await q(db, "UPDATE jobs SET status = 'failed', dead_lettered_at = NOW() WHERE id = ?", [idOf(db, parent)]);
      const r = await replayEditedSdj(s.store, B, parent, { kwargs: kw(['batch', { t: 'int', v: '2' }]) });
      expect(r.outcome.outcome).toBe('ok');
      expect(await argsText(s, parent)).toBe('{"batch":2}');
      expect(await count(s, 'SELECT COUNT(*) FROM jobs')).toBe(1);
      expect(await count(s, 'SELECT COUNT(*) FROM fan_outs')).toBe(0);
    });

    it('names a bad value before anything is written, preview or replay', async () => {
      s = await freshSdj(dialect);
      const id = await makeDeadLetter(s.db, { queue: queueName(), args: { n: 1 } });
      const before = (await readJob(s.db, id))!.raw;
      const bad: Array<[ReplayEditInput, string]> = [
        [{ kwargs: kw(['at', { t: 'datetime', v: 'tomorrow 9am', aware: false, epochMs: null }]) }, 'kwargs.at'],
        [{ kwargs: kw(['b', { t: 'bytes', base64: 'AA==', size: 1 }]) }, 'kwargs.b'],
        [{ args: [{ t: 'int', v: '1' }] }, 'args'],
        [{ queue: ' ' }, 'queue'],
      ];
      for (const [edit, field] of bad)
        for (const call of [previewReplayEditedSdj, replayEditedSdj]) {
          const e = await errorOf(call(s.store, B, id, edit));
          expect(e, field).toMatchObject({ code: 'InvalidInput' });
          expect(Object.keys((e as { fields: object }).fields)).toEqual([field]);
        }
      expect(await errorOf(previewReplayEditedSdj(s.store, B, id, { args: [{ t: 'null' }] }))).toMatchObject({ fields: { args: NO_ARGS } });
      expect((await readJob(s.db, id))!.raw).toEqual(before);
    });

    it('replays a letter once when two consoles edit-replay it at the same moment', async () => {
      s = await freshSdj(dialect);
      const id = await makeDeadLetter(s.db, { queue: queueName(), args: { who: 'none' } });
      const a = await openSdjStore(s.db.url, { lockWaitMs: 10_000 });
      const b = await openSdjStore(s.db.url, { lockWaitMs: 10_000 });
      try {
        const got = await Promise.all(
          [a, b].map((store, i) =>
            replayEditedSdj(store, B, id, { kwargs: kw(['who', { t: 'str', v: `console-${i}` }]) }).then(
              (r) => r.outcome.outcome,
              (e: { code?: string }) => `error:${e.code}`,
            ),
          ),
        );
        const winner = got.indexOf('ok');
        expect(winner).toBeGreaterThanOrEqual(0);
        expect(['already', 'error:NotFound']).toContain(got[1 - winner]);
        expect(await argsText(s, id)).toBe(`{"who":"console-${winner}"}`);
        expect((await readJob(s.db, id))!).toMatchObject({ status: 'pending', attempt: 0 });
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('changes nothing when a worker holds the row, or a live job holds its unique key', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName();
      const held = await makeDeadLetter(db, { queue: qn, args: { n: 1 } });
      const edit = { kwargs: kw(['n', { t: 'int', v: '2' }]), priority: 5 };
      const heldBefore = (await readJob(db, held))!.raw;
      const release = await holdRow(db, held);
      try {
        const r = await replayEditedSdj(s.store, B, held, edit);
        expect(r.outcome).toMatchObject({ outcome: 'conflict', message: expect.stringContaining('another transaction holds this job') });
      } finally {
        await release();
      }
      expect((await readJob(db, held))!.raw).toEqual(heldBefore);

      const keyed = await makeDeadLetter(db, { queue: qn, args: { n: 1 }, uniqueKey: 'invoice-42' });
      await goEnqueue(db, { queue: qn, uniqueKey: 'invoice-42' });
      const keyedBefore = (await readJob(db, keyed))!.raw;
      const r = await replayEditedSdj(s.store, B, keyed, edit);
      expect(r.outcome).toMatchObject({ outcome: 'conflict', message: expect.stringContaining('"invoice-42"') });
      expect((await readJob(db, keyed))!.raw).toEqual(keyedBefore);
    });

    it('refuses on a schema it was not verified against, and a missing id is NotFound', async () => {
      s = await freshSdj(dialect, { ledger: 'newer' });
      const id = await makeDeadLetter(s.db, { queue: queueName() });
      expect(await errorOf(replayEditedSdj(s.store, B, id, { priority: 1 }))).toMatchObject({ code: 'ReadOnly' });
      expect((await readJob(s.db, id))!.status).toBe('failed');
      const missing = '0190f0e0-0000-7000-8000-000000000001';
      expect(await errorOf(previewReplayEditedSdj(s.store, B, missing, {}))).toMatchObject({ code: 'NotFound' });
    });
  });
}
