// QueueFlow's dead letters over time against the REAL server (scripts/queueflow.sh): every
// letter has a died time (its `created_at`), so the trend chart counts them per bucket instead
// of saying "Unsupported". Letters are made as a worker makes them (lease, non-retryable fail)
// and moved back in QueueFlow's own table where a test needs them older.
import { afterAll, describe, expect, it } from 'vitest';
import { bucketTimes } from '@/lib/trends/ranges';
import { TRACEBACK } from '@/tests/contract/helpers';
import { queueflowSeeder } from '@/tests/queueflow/seeder';
import { startQueueflow, uniqueQueue } from '@/tests/queueflow/support';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import { HISTOGRAM_WINDOW } from '@/lib/brokers/queueflow/histogram';

const HOUR = 3_600_000;
const s = startQueueflow();
afterAll(() => s?.stop());

const d = s ? describe : describe.skip;
d('QueueFlow dead letters over time', () => {
  const a = () =>
    createQueueflowAdapter({ id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token: s!.token } }, adapterContext());

  it('counts letters per bucket by their died time, per queue and per group, replayed ones too', async () => {
    const seed = queueflowSeeder(s!);
    const adapter = a();
    const q = uniqueQueue('qftr');
    const other = uniqueQueue('qftr_other');
    const before = Date.now();
    await seed.deadLetter({ task: 'tr.h', queue: q, reason: TRACEBACK('ValueError: card 17 declined'), diedAgo: 2 * 3600 });
    const fresh = await seed.deadLetter({ task: 'tr.h', queue: q, reason: TRACEBACK('KeyError: nope') });
    await seed.deadLetter({ task: 'tr.h', queue: other, reason: TRACEBACK('KeyError: nope') });
    const after = Date.now();
    // A replayed letter stays in QueueFlow's DLQ, marked: it still died when it died.
    expect((await adapter.replayDead([fresh])).succeeded.map((x) => x.id)).toEqual([fresh]);

    expect(adapter.deadHistogram).toBeTypeOf('function');
    const w = { fromMs: (Math.floor(after / HOUR) - 3) * HOUR, bucketMs: HOUR, buckets: 4 };
    const h = await adapter.deadHistogram!({ ...w, queue: q });
    const expected = (now: number) => bucketTimes([now - 2 * HOUR, now], w).counts;
    expect([expected(before), expected(after)]).toContainEqual(h.counts);
    expect(h).toMatchObject({ undated: 0, scannedNewest: null });

    const declined = (await adapter.deadGroups({ queue: q })).groups.find((g) => g.pattern === 'ValueError: card <n> declined');
    const g = await adapter.deadHistogram!({ ...w, queue: q, group: declined!.fingerprint });
    expect(g.counts.reduce((n, c) => n + c, 0)).toBe(1);
    // Outside the window nothing; each queue counts its own.
    expect((await adapter.deadHistogram!({ ...w, fromMs: w.fromMs - 10 * HOUR, queue: q })).counts).toEqual([0, 0, 0, 0]);
    expect((await adapter.deadHistogram!({ ...w, queue: other })).counts.reduce((n, c) => n + c, 0)).toBe(1);
    expect(HISTOGRAM_WINDOW).toBeGreaterThan(0);
  });
});
