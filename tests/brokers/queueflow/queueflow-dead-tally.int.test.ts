// int-lane: isolated (a QueueFlow server and database of its own, on a free port)
// QueueFlow's per-queue dead-letter counts against the REAL server (scripts/queueflow.sh): while
// the letters not replayed are few, the overview tallies them from one list of them all instead
// of a counted call per queue (thousands of requests at thousands of queues, docs/performance.md
// "Thousands of queues"); past the bound it counts per queue as before. Both agree, replayed
// letters are in neither, and the tally's requests do not grow with the number of queues.
import { afterAll, describe, expect, it } from 'vitest';
import { TRACEBACK } from '@/tests/contract/helpers';
import { queueflowSeeder } from '@/tests/queueflow/seeder';
import { startQueueflow, uniqueQueue } from '@/tests/queueflow/support';
import { createQfClient } from '@/lib/brokers/queueflow/client';
import { queueStats } from '@/lib/brokers/queueflow/overview';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';

const s = startQueueflow();
afterAll(() => s?.stop());

/** A client that counts its requests to the dead-letter routes. */
function countingClient() {
  const seen = { dlq: 0 };
  const fetch = (...a: Parameters<typeof globalThis.fetch>) => {
    if (String(a[0] instanceof Request ? a[0].url : a[0]).includes('/api/v1/dlq')) seen.dlq++;
    return globalThis.fetch(...a);
  };
  return { client: createQfClient({ url: s!.url, token: s!.token, timeoutMs: 8000, fetch }), seen };
}

const d = s ? describe : describe.skip;
d('QueueFlow dead letters counted per queue', () => {
  it('tallies them from one list while few, agrees with the per-queue counts, and leaves replayed ones out', async () => {
    const seed = queueflowSeeder(s!);
    const a = createQueueflowAdapter(
      { id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token: s!.token } },
      adapterContext(),
    );
    const queues = Array.from({ length: 6 }, (_, i) => uniqueQueue(`qfdt${i}`));
    const letters: string[] = [];
    for (const [i, q] of queues.entries())
      for (let k = 0; k < i % 3; k++)
        letters.push(await seed.deadLetter({ task: 'dt.h', queue: q, reason: TRACEBACK(`ValueError: ${i}`) }));
    for (const q of [queues[0]!, queues[3]!]) await seed.enqueue({ task: 'dt.ok', queue: q }); // queues with no letters
    // Replayed: still in QueueFlow's DLQ, marked, and no longer counted as dead.
    expect((await a.replayDead([letters[0]!])).succeeded).toHaveLength(1);

    const dead = (qs: Awaited<ReturnType<typeof queueStats>>) => queues.map((q) => qs.find((x) => x.name === q)?.dead);
    const expected = queues.map((_, i) => (i % 3) - (i === 1 ? 1 : 0)); // letters[0] is queue 1's
    const t = countingClient();
    const tallied = { out: await queueStats(t.client), calls: t.seen.dlq };
    const c = countingClient();
    const counted = { out: await queueStats(c.client, undefined, 0), calls: c.seen.dlq };
    expect(dead(tallied.out)).toEqual(expected);
    expect(dead(counted.out)).toEqual(expected);
    // One list call (the letters fit a page) against one for the total and one per queue.
    expect(tallied.calls).toBe(1);
    expect(counted.calls).toBe(1 + counted.out.length);
    expect((await a.overview()).queues.filter((q) => queues.includes(q.name)).map((q) => q.dead)).toEqual(expected);
    await a.close?.();
  });
});
