// The /metrics answer next to brokers that cannot answer: potatoq on the real Redis under a key
// prefix of its own, one broker whose endpoint accepts connections and never answers (a local
// TCP server holding them), and one on a port nothing listens on. The scrape answers within the
// metrics budget with the working broker's series and the two others marked; when the hung one
// recovers (its held connection passed through to the real Redis), the next snapshot is fresh.
// int-lane: uses redis/0 (key prefixes of its own)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { freePort } from '@/tests/support/free-port';
import { hangGate, type HangGate } from '@/tests/support/hang-gate';
import { dropPrefix, newPrefix, redisAvailable, REDIS_URL, testClient } from '@/tests/support/redis';
import { seedRedisQueues } from '@/tests/support/redis-queues-seed';

const BUDGET_MS = 1500;
// The read timeouts well past the budget (the service's, and the Redis adapter's own for the
// hung broker): without the budget, the hung broker would hold the answer about 20 s.
const READ_TIMEOUT_MS = 30_000;
const up = await redisAvailable();
const [good, hung] = [newPrefix(), newPrefix()];
let c: Redis | null = null;
let gate: HangGate | null = null;

beforeAll(async () => {
  if (!up) return;
  c = testClient();
  await seedRedisQueues(c, good, { queues: 2, waiting: 6, dead: 2 });
  await seedRedisQueues(c, hung, { queues: 2, waiting: 4, dead: 0 });
  const redis = new URL(REDIS_URL);
  gate = await hangGate({ host: redis.hostname, port: Number(redis.port || 6379) });
  const closed = await freePort();
  const at = (port: number) => `redis://127.0.0.1:${port}${redis.pathname}`;
  process.env.POTATOQ_CONSOLE_METRICS_BUDGET_MS = String(BUDGET_MS);
  process.env.POTATOQ_CONSOLE_READ_TIMEOUT_MS = String(READ_TIMEOUT_MS);
  process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([
    { id: 'good', name: 'Good', url: REDIS_URL, prefix: good },
    { id: 'hung', name: 'Hung', url: at(gate.port), prefix: hung, timeoutMs: 20_000 },
    { id: 'closed', name: 'Closed', url: at(closed), prefix: 'none' },
  ]);
}, 60_000);
afterAll(async () => {
  await (await import('@/lib/brokers/registry')).resetAdapters();
  await gate?.close();
  if (c) {
    for (const p of [good, hung]) await dropPrefix(c, p);
    c.disconnect();
  }
});

const series = (text: string, name: string, broker: string) => new RegExp(`^${name}\\{broker="${broker}"\\} (\\S+)$`, 'm').exec(text)?.[1];

describe.skipIf(!up)('/metrics with a hung and a closed broker next to a working one (real Redis)', () => {
  it('answers within the budget with the working broker read and the others marked, then recovers', async () => {
    const { renderMetrics, renderSnapshot } = await import('@/lib/metrics/render');
    const { takeSnapshot } = await import('@/lib/metrics/snapshot');
    const t0 = performance.now();
    const text = await renderMetrics();
    const ms = performance.now() - t0;
    // Bounded by the budget (plus connecting and rendering), far from the read timeout.
    expect(ms).toBeLessThan(BUDGET_MS + 2500);
    expect(gate!.accepted()).toBeGreaterThan(0);
    expect(series(text, 'potatoq_console_broker_up', 'good')).toBe('1');
    expect(series(text, 'potatoq_console_broker_stale', 'good')).toBe('0');
    expect(text).toMatch(/^potatoq_console_queue_tasks\{broker="good",queue="bench-q00",state="ready"\} 3$/m);
    expect(text).toMatch(/^potatoq_console_queue_tasks\{broker="good",queue="bench-q01",state="dead"\} 1$/m);
    // Never answered: down and stale, no queue series; the read goes on.
    expect(series(text, 'potatoq_console_broker_up', 'hung')).toBe('0');
    expect(series(text, 'potatoq_console_broker_stale', 'hung')).toBe('1');
    expect(text).not.toMatch(/^potatoq_console_queue_tasks\{broker="hung"/m);
    expect(series(text, 'potatoq_console_broker_up', 'closed')).toBe('0');
    expect(text).toMatch(/^potatoq_console_broker_info\{broker="closed",name="Closed",kind="redis",system="potatoq"\} 1$/m);

    // A second snapshot while the hung read is still out asks it nothing new: still stale.
    const again = await takeSnapshot();
    expect(again.brokers.find((b) => b.id === 'hung')).toMatchObject({ ok: false, stale: true });
    // The alert targets judged on it: the two that did not answer are unreachable, and their
    // queue targets unknown (no rule fires on them), each saying why.
    const { evaluateSnapshot } = await import('@/lib/alerts/watch');
    const { newAlertMemory } = await import('@/lib/alerts/evaluate');
    const { ZAlertTarget } = await import('@/lib/alerts/schema');
    const targets = ['good', 'hung', 'closed'].flatMap((broker) => [
      ZAlertTarget.parse({ id: `${broker}-down`, broker, kind: 'unreachable' }),
      ZAlertTarget.parse({ id: `${broker}-slow`, broker, kind: 'oldestWaiting', threshold: 3600 }),
    ]);
    const judged = async (s: Awaited<ReturnType<typeof takeSnapshot>>) =>
      Object.fromEntries((await evaluateSnapshot(s, targets, newAlertMemory())).map((r) => [r.target.id, r]));
    const alerts = await judged(again);
    expect(alerts['good-down']).toMatchObject({ value: 0, breached: false });
    // Judged on its fresh read (the seed's tasks are old: a number, not unknown).
    expect(alerts['good-slow']!.value).toBeGreaterThan(0);
    for (const b of ['hung', 'closed']) expect(alerts[`${b}-down`], b).toMatchObject({ value: 1, breached: true });
    expect(alerts['hung-slow']).toMatchObject({
      value: null,
      unknown: expect.stringMatching(/did not answer: no answer within the metrics budget/),
    });
    expect(alerts['closed-slow']).toMatchObject({ value: null, unknown: expect.stringMatching(/^the broker did not answer: /) });

    // The broker recovers with more work than before: the held read lands, then a fresh one.
    await seedRedisQueues(c!, hung, { queues: 2, waiting: 10, dead: 0 });
    gate!.open();
    let fresh = '';
    for (let i = 0; i < 10 && series(fresh, 'potatoq_console_broker_stale', 'hung') !== '0'; i++)
      fresh = await renderSnapshot(await takeSnapshot());
    expect(series(fresh, 'potatoq_console_broker_up', 'hung')).toBe('1');
    expect(series(fresh, 'potatoq_console_broker_stale', 'hung')).toBe('0');
    expect(series(fresh, 'potatoq_console_broker_read_age_seconds', 'hung')).toBe('0');
    expect(fresh).toMatch(/^potatoq_console_queue_tasks\{broker="hung",queue="bench-q01",state="ready"\} 5$/m);
    expect(series(fresh, 'potatoq_console_broker_up', 'good')).toBe('1');
    // Recovered: reachable again, and its queues judged.
    const after = await judged(await takeSnapshot());
    expect(after['hung-down']).toMatchObject({ value: 0, breached: false });
    expect(after['hung-slow']!.value).not.toBeNull();
  }, 90_000);
});
