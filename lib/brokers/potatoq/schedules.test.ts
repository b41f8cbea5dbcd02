import { describe, expect, it } from 'vitest';
import { foldFires, inferPeriod, periodicProblems, periodicSchedules } from './schedules';

const NOW = 1_800_000_000;

describe("potatoq's periodic claims", () => {
  it('infers the period from the median gap, and only with three firings', () => {
    expect(inferPeriod([NOW, NOW - 60, NOW - 120, NOW - 300])).toBe(60);
    expect(inferPeriod([NOW, NOW - 60])).toBeNull();
  });

  it('flags an entry that stopped firing, and a gap in its history', () => {
    const stopped = [NOW - 600, NOW - 660, NOW - 720];
    expect(periodicProblems(stopped, NOW)).toMatchObject([{ kind: 'missed', cause: expect.stringMatching(/no firing for 10m/) }]);
    const gap = [NOW, NOW - 60, NOW - 120, NOW - 1200, NOW - 1260];
    expect(periodicProblems(gap, NOW)).toMatchObject([{ kind: 'missed', cause: expect.stringMatching(/are missing/) }]);
    expect(periodicProblems([NOW, NOW - 60, NOW - 120], NOW + 30)).toEqual([]);
  });

  it('lists entries most recently fired first; Redis (no history) flags nothing', () => {
    const entries = foldFires([
      { name: 'a', fire_at: NOW - 700 },
      { name: 'a', fire_at: NOW - 760 },
      { name: 'a', fire_at: NOW - 820 },
      { name: 'b', fire_at: NOW - 5 },
    ]);
    const sql = periodicSchedules(entries, { history: true, now: NOW });
    expect(sql.schedules.map((s) => s.name)).toEqual(['b', 'a']);
    expect(sql.schedules[1]!.problems).toHaveLength(1);
    const redis = periodicSchedules(entries, { history: false, now: NOW });
    expect(redis.schedules.every((s) => s.problems.length === 0)).toBe(true);
    expect(redis.schedules[0]!.words).toMatch(/only its latest firing/);
  });
});
