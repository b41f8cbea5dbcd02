// Thousands of queues on one real broker, through the console's service: potatoq's tables made
// by the real `potatoq migrate` on PostgreSQL and potatoq's key layout on Redis, seeded
// server-side so 3,000 queues take a second. Every queue is listed with its counts, the queue
// table's pages hold each queue exactly once, a search finds exactly the names that hold it,
// and the /metrics scrape keeps the busiest queues and sums the rest without losing a task.
// int-lane: uses redis/0 (a key prefix of its own)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { seedLive } from '@/tests/support/pg-live-seed';
import { migratedSchema, pgAvailable, PG_URL, tableOf, type PgTarget } from '@/tests/support/postgres';
import { dropPrefix, newPrefix, redisAvailable, REDIS_URL, testClient } from '@/tests/support/redis';
import { seedRedisQueues } from '@/tests/support/redis-queues-seed';
import type { BrokerOverview } from '@/lib/brokers/dto';

const N = 3000;
const [pgUp, redisUp] = [await pgAvailable(), await redisAvailable()];
let t: PgTarget | null = null;
let c: Redis | null = null;
const prefix = newPrefix();
const name = (i: number) => `bench-q${String(i).padStart(4, '0')}`;

beforeAll(async () => {
  const brokers: Array<Record<string, unknown>> = [];
  if (pgUp) {
    t = migratedSchema('potatoq_');
    const T = (x: string) => tableOf(t!, x);
    await seedLive(PG_URL, { jobs: T('jobs'), dead: T('dead'), results: T('results'), workers: T('workers') }, sizes, 'fresh');
    brokers.push({ id: 'manypg', name: 'Many PG', url: PG_URL, ...t.options });
  }
  if (redisUp) {
    c = testClient();
    await seedRedisQueues(c, prefix, sizes);
    brokers.push({ id: 'manyrd', name: 'Many Redis', url: REDIS_URL, prefix });
  }
  process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify(brokers);
}, 180_000);
afterAll(async () => {
  await (await import('@/lib/brokers/registry')).resetAdapters();
  if (c) {
    await dropPrefix(c, prefix);
    c.disconnect();
  }
});

/** 4 waiting and 1 dead per queue; on PostgreSQL also 600 running and 300 retried. */
const sizes = { queues: N, waiting: 4 * N, running: N / 5, retried: N / 10, dead: N };

const overview = async (id: string) => (await import('@/lib/brokers/service')).overview(id);
const ready = (o: BrokerOverview) => o.queues.reduce((n, q) => n + (q.counts.ready ?? 0), 0);

describe.each([
  { id: 'manypg', up: pgUp },
  { id: 'manyrd', up: redisUp },
])('$id', ({ id, up }) => {
  it.skipIf(!up)(`lists all ${N} queues with their counts, paged and searched without losing or repeating one`, async () => {
    const { pageQueues } = await import('@/lib/brokers/queue-page');
    const o = await overview(id);
    const names = new Set(o.queues.map((q) => q.name));
    for (let i = 0; i < N; i++) expect(names.has(name(i)), name(i)).toBe(true);
    expect((o.warnings ?? []).filter((w) => w.includes(':queues lists more'))).toEqual([]);
    const dead = o.queues.filter((q) => q.name.startsWith('bench-q')).reduce((n, q) => n + (q.dead ?? 0), 0);
    expect(dead).toBe(N);
    const seen: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const p = pageQueues(o, { search: undefined, offset, limit: 500 });
      expect(p.queuePage).toMatchObject({ matched: o.queues.length, total: o.queues.length });
      if (!p.queues.length) break;
      seen.push(...p.queues.map((q) => q.name));
    }
    expect(seen).toEqual(o.queues.map((q) => q.name));
    const found = pageQueues(o, { search: 'BENCH-Q12', offset: 0, limit: 500 });
    expect(found.queues.map((q) => q.name).sort()).toEqual(Array.from({ length: 100 }, (_, i) => name(1200 + i)));
  });

  it.skipIf(!up)('the /metrics scrape keeps the busiest 100 queues one by one and the rest summed, every task counted', async () => {
    const { takeSnapshot } = await import('@/lib/metrics/snapshot');
    const { renderSnapshot } = await import('@/lib/metrics/render');
    const s = await takeSnapshot();
    const o = s.brokers.find((b) => b.id === id)!.overview!;
    const text = await renderSnapshot({ ...s, brokers: s.brokers.filter((b) => b.id === id) }, 100);
    const series = [...text.matchAll(/^potatoq_console_queue_tasks\{broker="[^"]+",queue="([^"]+)",state="ready"\} (\d+)$/gm)];
    expect(series).toHaveLength(101);
    expect(series.at(-1)?.[1]).toBe('(other)');
    expect(series.reduce((n, m) => n + Number(m[2]), 0)).toBe(ready(o));
    expect(text).toContain(`potatoq_console_queues_omitted{broker="${id}"} ${o.queues.length - 100}`);
  });
});
