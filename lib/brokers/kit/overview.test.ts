import { describe, expect, it } from 'vitest';
import type { QueueStats } from '@/lib/brokers/dto';
import { knownSum, totalsOver, workerTally } from './overview';

const queue = (name: string, counts: Record<string, number | null>, dead: number | null): QueueStats => ({
  name,
  counts,
  dead,
  oldestWaitingAt: null,
  tasks: null,
});

describe('knownSum', () => {
  it('adds known parts, is 0 over none, and unknown as soon as one part is', () => {
    expect(knownSum([1, 2, 3])).toBe(6);
    expect(knownSum([])).toBe(0);
    expect(knownSum([1, null, 3])).toBeNull();
    expect(knownSum([1, undefined])).toBeNull();
  });
});

describe('totalsOver', () => {
  it('sums each declared state and the dead letters over the queues', () => {
    const t = totalsOver([queue('a', { ready: 2, running: 1 }, 4), queue('b', { ready: 3, running: 0 }, 1)], ['ready', 'running']);
    expect(t).toEqual({ counts: { ready: 5, running: 1 }, dead: 5 });
  });

  it("makes a total unknown where one queue's count is unknown or absent, and only that total", () => {
    const t = totalsOver([queue('a', { ready: 2, running: null }, null), queue('b', { ready: 3 }, 1)], ['ready', 'running']);
    expect(t).toEqual({ counts: { ready: 5, running: null }, dead: null });
  });

  it('answers zeros for a broker without queues', () => {
    expect(totalsOver([], ['ready'])).toEqual({ counts: { ready: 0 }, dead: 0 });
  });
});

describe('workerTally', () => {
  it('counts alive and stale workers; a dead one is neither', () => {
    expect(workerTally([{ status: 'alive' }, { status: 'stale' }, { status: 'alive' }, { status: 'dead' }])).toEqual({
      alive: 2,
      stale: 1,
    });
  });
});
