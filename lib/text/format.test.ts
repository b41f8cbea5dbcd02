import { describe, expect, it } from 'vitest';
import { formatAge, formatCount, formatRelative, formatTimedelta, formatUtc } from '@/lib/text/format';

describe('formatAge', () => {
  it('shows the two most significant units', () => {
    expect(formatAge(5)).toBe('5s');
    expect(formatAge(192)).toBe('3m 12s');
    expect(formatAge(3600)).toBe('1h');
    expect(formatAge(93784)).toBe('1d 2h');
  });
});

describe('formatCount', () => {
  it('shows a capped count as a floor with the planner estimate, never as an exact number', () => {
    expect(formatCount(1000, { atLeast: 1000, estimate: 1_234_567 })).toBe('1,000+ (≈1,234,567)');
    expect(formatCount(1000, { atLeast: 1000, estimate: null })).toBe('1,000+');
  });

  it('shows unknown as a dash, never as zero', () => {
    expect(formatCount(null)).toBe('—');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(12345)).toBe('12,345');
  });
});

describe('formatTimedelta', () => {
  it('humanises exact seconds text', () => {
    expect(formatTimedelta('93784.5')).toBe('1 day 2h 3m 4.5s');
    expect(formatTimedelta('0.0')).toBe('0s');
    expect(formatTimedelta('172800.0')).toBe('2 days');
    expect(formatTimedelta('-1.0')).toBe('-1s');
  });
});

describe('times', () => {
  it('formats UTC and relative ages', () => {
    expect(formatUtc('2026-11-30T01:02:03.000Z')).toBe('2026-11-30 01:02:03.000 UTC');
    const now = Date.parse('2026-11-30T01:05:15Z');
    expect(formatRelative('2026-11-30T01:02:03Z', now)).toBe('3m 12s ago');
    expect(formatRelative('2026-11-30T01:06:15Z', now)).toBe('in 1m');
    expect(formatRelative(null, now)).toBe('—');
  });
});
