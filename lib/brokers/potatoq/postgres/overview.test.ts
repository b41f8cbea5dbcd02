import { describe, expect, it } from 'vitest';
import type { QueueStats, WorkerInfo } from '@/lib/brokers/schema';
import { totalsOf, withWorkerQueues } from './overview';
import { selectivity } from './stats';

const q = (name: string, over: Partial<QueueStats> & { ready?: number; scheduled?: number } = {}): QueueStats => {
  const { ready = 0, scheduled = 0, ...rest } = over;
  return { name, counts: { ready, scheduled, running: 0 }, dead: 0, oldestWaitingAt: null, tasks: null, ...rest };
};

describe('PostgreSQL overview arithmetic', () => {
  it('keeps totals exact when nothing was capped', () => {
    const { totals, capped } = totalsOf([q('a', { ready: 3, dead: 1 }), q('b', { ready: 2, scheduled: 4 })]);
    expect(totals).toEqual({ counts: { ready: 5, scheduled: 4, running: 0 }, dead: 1 });
    expect(capped).toBeUndefined();
  });

  it('makes a total a lower bound with a summed estimate when a queue was capped', () => {
    const { totals, capped } = totalsOf([
      q('a', { ready: 1000, capped: { ready: { atLeast: 1000, estimate: 52_000 } } }),
      q('b', { ready: 7 }),
    ]);
    expect(totals.counts.ready).toBe(1007);
    expect(capped).toEqual({ ready: { atLeast: 1007, estimate: 52_007 } });
    expect(totalsOf([q('a', { dead: 1000, capped: { dead: { atLeast: 1000, estimate: null } } })]).capped).toEqual({
      dead: { atLeast: 1000, estimate: null },
    });
  });

  it("adds the queues live workers consume, empty, and leaves dead workers' out", () => {
    const w = (status: WorkerInfo['status'], queues: string[]) => ({ status, queues }) as WorkerInfo;
    const out = withWorkerQueues([q('b', { ready: 1 })], [w('alive', ['a', 'b']), w('dead', ['zombie'])]);
    expect(out.map((x) => [x.name, x.counts.ready])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });

  it('estimates selectivity like the planner: most common values, then the rest spread evenly', () => {
    const s = { n_distinct: 5, null_frac: 0, vals: ['x', 'y'], freqs: [0.5, 0.2] };
    expect(selectivity(s, 'x', 1000)).toBe(0.5);
    expect(selectivity(s, 'other', 1000)).toBeCloseTo(0.1); // (1 - 0.7) / 3
    expect(selectivity({ n_distinct: -0.5, null_frac: 0, vals: null, freqs: null }, 'k', 100)).toBeCloseTo(0.02);
    expect(selectivity(undefined, 'x', 10)).toBeNull();
  });
});
