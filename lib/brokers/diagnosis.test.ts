import { describe, expect, it } from 'vitest';
import { capFlags, findingCount, type Diagnosis, type StuckCheck, type StuckFlag } from './diagnosis';

const flag = (check: StuckCheck, queue: string): StuckFlag => ({
  check,
  queue,
  ids: [],
  count: 1,
  cause: `${check} in ${queue}`,
  can: 'open it',
  cannot: 'change running work',
  link: { page: 'queue', queue, state: 'waiting' },
  seconds: null,
});
const diagnosis = (flags: StuckFlag[]): Diagnosis => ({
  brokerId: 'b',
  flags,
  unknown: [],
  notes: [],
  overdueSeconds: 120,
  readAt: '2026-12-05T00:00:00Z',
});

describe('capFlags', () => {
  it('keeps every finding, in the order of the checks, when there are few', () => {
    const d = capFlags(diagnosis([flag('overdue', 'a'), flag('worker-lost', 'b'), flag('overdue', 'c')]));
    expect(d.flags.map((f) => f.cause)).toEqual(['worker-lost in b', 'overdue in a', 'overdue in c']);
    expect(d.flagsOmitted).toBeUndefined();
    expect(findingCount(d)).toBe(3);
  });

  it('lists the first ones past the cap and counts the rest, the adapter order kept within a check', () => {
    const many = Array.from({ length: 5000 }, (_, i) => flag('no-consumer', `q${i}`));
    const d = capFlags(diagnosis([...many, flag('worker-lost', 'w')]), 100);
    expect(d.flags).toHaveLength(100);
    expect(d.flags[0]?.queue).toBe('w');
    expect(d.flags[1]?.queue).toBe('q0');
    expect(d.flags[99]?.queue).toBe('q98');
    expect(d.flagsOmitted).toBe(4901);
    expect(findingCount(d)).toBe(5001);
  });

  it('adds to what an earlier cap already left out', () => {
    const d = capFlags({ ...diagnosis([flag('overdue', 'a'), flag('overdue', 'b')]), flagsOmitted: 7 }, 1);
    expect(d.flags.map((f) => f.queue)).toEqual(['a']);
    expect(d.flagsOmitted).toBe(8);
  });
});
