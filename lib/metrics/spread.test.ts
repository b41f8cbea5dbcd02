import { describe, expect, it, vi } from 'vitest';
import { spreadDelay, SPREAD_MAX_MS } from './snapshot';

const started: number[] = [];
vi.mock('@/lib/brokers/service', () => ({
  brokerList: () => Array.from({ length: 50 }, (_, i) => ({ id: `b${i}`, name: `b${i}`, kind: 'sqlite' })),
  overview: async (id: string) => {
    started.push(performance.now());
    if (id === 'b3') throw new Error('refused');
    return { id, queues: [], readMs: 1 };
  },
  toConsoleError: (e: unknown) => ({ code: 'BrokerUnavailable', message: e instanceof Error ? e.message : String(e) }),
}));
const { takeSnapshot } = await import('./snapshot');

describe('spreading the reads of many brokers', () => {
  it('starts each broker 20 ms after the one before, fifty within a second; one broker at once', () => {
    expect(spreadDelay(0, 1)).toBe(0);
    expect([0, 1, 2].map((i) => spreadDelay(i, 3))).toEqual([0, 20, 40]);
    expect(spreadDelay(49, 50)).toBe(980);
    expect(spreadDelay(499, 500)).toBeLessThan(SPREAD_MAX_MS);
    expect(spreadDelay(5, 10, 0)).toBe(0);
  });

  it('asks fifty brokers over about a second, never all in the same millisecond, and keeps each answer', async () => {
    const t0 = performance.now();
    const snap = await takeSnapshot();
    const offsets = started.map((t) => t - t0).sort((a, b) => a - b);
    expect(offsets).toHaveLength(50);
    expect(offsets.at(-1)! - offsets[0]!).toBeGreaterThanOrEqual(900);
    expect(new Set(offsets.map(Math.floor)).size).toBeGreaterThan(40);
    expect(snap.brokers.filter((b) => b.ok)).toHaveLength(49);
    expect(snap.brokers.find((b) => b.id === 'b3')?.error?.message).toBe('refused');
    started.length = 0;
    const at = performance.now();
    await takeSnapshot({ spreadMs: 0 });
    expect(Math.max(...started) - at).toBeLessThan(200);
  });
});
