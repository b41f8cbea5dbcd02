import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import type { Letter } from './rabbitmq/letter';
import { celeryDeadHistogram } from './histogram';

const MIN = 60_000;
const T0 = Date.UTC(2026, 11, 1, 12, 0);
const w = { fromMs: T0, bucketMs: MIN, buckets: 3 };
const tb = (last: string) => `Traceback (most recent call last):\n  File "/srv/shop/tasks.py", line 3, in charge\n${last}\n`;

/** A result backend holding these records (`celery-task-meta-<id>` as the Redis backend writes them). */
function backend(records: Array<{ id: string; status: string; queue?: string; doneMs?: number | null; traceback?: string }>) {
  const values = new Map(
    records.map((r) => [
      `p:celery-task-meta-${r.id}`,
      JSON.stringify({
        status: r.status,
        result: r.status === 'FAILURE' ? { exc_type: 'ValueError', exc_message: ['x'], exc_module: 'builtins' } : 1,
        traceback: r.traceback ?? (r.status === 'FAILURE' ? tb('ValueError: card 17 declined') : null),
        children: [],
        date_done: r.doneMs === null ? null : new Date(r.doneMs ?? T0).toISOString(),
        task_id: r.id,
        name: 'shop.charge',
        queue: r.queue ?? 'q',
      }),
    ]),
  );
  const keys = [...values.keys()];
  const ops: Array<[unknown, unknown]> = [];
  const pipe = {
    get: (k: string) => (ops.push([null, values.get(k) ?? null]), pipe),
    pttl: () => (ops.push([null, -1]), pipe),
    exec: async () => ops.splice(0),
  };
  const fake = {
    // Two SCAN pages, as a real SCAN may split them.
    scan: async (cursor: string) => (cursor === '0' ? ['1', keys.slice(0, 7)] : ['0', keys.slice(7)]),
    pipeline: () => pipe,
    dbsize: async () => keys.length,
    // A login refused the subscription: every read reads every record again.
    duplicate: () => ({ on: () => undefined, psubscribe: async () => Promise.reject(new Error('NOPERM')), disconnect: () => undefined }),
  };
  return { brokerId: 'c', backend: fake as unknown as Redis, resultPrefix: 'p:', resultExpires: 86400, resultCap: 20 };
}

const letter = (id: string, queue: string, diedAtMs: number | null, reason = 'rejected in q'): Letter =>
  ({ id, queue, task: 'shop.charge', reason, diedAtMs, payload: {}, body: Buffer.from(''), headers: {} }) as unknown as Letter;

describe("Celery's dead-letter histogram", () => {
  it("buckets FAILURE records by date_done, per queue and per group; other statuses don't count; no date_done is undated", async () => {
    const ctx = backend([
      { id: 'a', status: 'FAILURE', doneMs: T0 + 5_000 },
      { id: 'b', status: 'FAILURE', doneMs: T0 + MIN + 1 },
      { id: 'c', status: 'FAILURE', doneMs: T0 + 2 * MIN + 59_999, traceback: tb('KeyError: nope') },
      { id: 'd', status: 'FAILURE', doneMs: T0 - 1 },
      { id: 'e', status: 'SUCCESS', doneMs: T0 + 5_000 },
      { id: 'f', status: 'REVOKED', doneMs: T0 + 5_000 },
      { id: 'g', status: 'FAILURE', doneMs: null },
      { id: 'h', status: 'FAILURE', doneMs: T0 + 5_000, queue: 'other' },
    ]);
    expect(await celeryDeadHistogram(ctx, { ...w, queue: 'q' })).toEqual({ counts: [1, 1, 1], undated: 1, scannedNewest: null });
    expect(await celeryDeadHistogram(ctx, w)).toEqual({ counts: [2, 1, 1], undated: 1, scannedNewest: null });
    const declined = reasonFingerprint(tb('ValueError: card 4242 declined')).key;
    expect(await celeryDeadHistogram(ctx, { ...w, queue: 'q', group: declined })).toMatchObject({ counts: [1, 1, 0], undated: 1 });
    expect(await celeryDeadHistogram(ctx, { ...w, queue: 'nope' })).toMatchObject({ counts: [0, 0, 0], undated: 0 });
  });

  it('adds DLQ messages by their x-death time, a task with a FAILURE record once (by its record)', async () => {
    const ctx = backend([{ id: 'both', status: 'FAILURE', doneMs: T0 + 5_000 }]);
    const read = async () => [
      letter('both', 'q', T0 + 2 * MIN),
      letter('only', 'q', T0 + MIN),
      letter('elsewhere', 'other', T0 + MIN),
      letter('undated', 'q', null),
    ];
    const letters = { read, groupKey: (l: Letter) => reasonFingerprint(l.reason).key };
    expect(await celeryDeadHistogram(ctx, { ...w, queue: 'q' }, letters)).toEqual({ counts: [1, 1, 0], undated: 1, scannedNewest: null });
    // A group filter the record does not match leaves its letter out too (the task is its record).
    const rejected = reasonFingerprint('rejected in q').key;
    expect(await celeryDeadHistogram(ctx, { ...w, group: rejected }, letters)).toMatchObject({ counts: [0, 2, 0], undated: 1 });
    // Without a result backend the DLQ alone answers.
    const none = { ...ctx, backend: null };
    expect(await celeryDeadHistogram(none, { ...w, queue: 'q' }, letters)).toMatchObject({ counts: [0, 1, 1], undated: 1 });
    expect(await celeryDeadHistogram(none, { ...w, group: rejected }, letters)).toMatchObject({ counts: [0, 2, 1] });
  });

  it('says how many records it read when the backend holds more than it reads, and refuses without a backend or DLQ', async () => {
    // The index keeps at most `resultCap` records (20 here).
    const many = Array.from({ length: 25 }, (_, i) => ({ id: `r${i}`, status: 'FAILURE', doneMs: T0 }));
    const h = await celeryDeadHistogram(backend(many), w);
    expect(h.scannedNewest).toBe(20);
    expect(h.counts[0]).toBe(20);
    await expect(celeryDeadHistogram({ ...backend([]), backend: null }, w)).rejects.toMatchObject({ code: 'Unsupported' });
  });
});
