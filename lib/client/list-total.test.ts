import { describe, expect, it } from 'vitest';
import type { BrokerOverview } from '@/lib/brokers/schema';
import { listTotal } from './list-total';

const o = {
  queues: [{ name: 'mail', counts: { ready: 1241, scheduled: null, running: 2 }, dead: 7, oldestWaitingAt: null, tasks: null }],
  totals: { counts: { ready: 1300, scheduled: 4, running: 2 }, dead: 9 },
} as unknown as BrokerOverview;

describe('listTotal', () => {
  it("gives a queue's count of the state for an unfiltered list", () => {
    expect(listTotal(o, 'ready', { queue: 'mail' })).toBe('1,241');
    expect(listTotal(o, 'dead', {})).toBe('9');
  });
  it('gives nothing when a filter narrows the list or the broker cannot count', () => {
    expect(listTotal(o, 'ready', { queue: 'mail', task: 'x' })).toBeNull();
    expect(listTotal(o, 'dead', { group: 'fp-1' })).toBeNull();
    expect(listTotal(o, 'scheduled', { queue: 'mail' })).toBeNull();
    expect(listTotal(undefined, 'ready', {})).toBeNull();
  });
});
