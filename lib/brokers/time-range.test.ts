import { describe, expect, it } from 'vitest';
import { ZDeadListQuery } from './schema';
import { agoMs, boundMs, describeRange, inRange, rangeProblem } from './time-range';

const NOW = Date.parse('2026-12-04T20:00:00Z');

describe('time range bounds', () => {
  it.each([
    ['15m', NOW - 15 * 60_000],
    ['2h', NOW - 2 * 3_600_000],
    ['7d', NOW - 7 * 86_400_000],
    ['1w', NOW - 7 * 86_400_000],
    ['30s', NOW - 30_000],
    ['2026-12-04T19:30:00Z', Date.parse('2026-12-04T19:30:00Z')],
    ['2026-12-04T21:30:00+02:00', Date.parse('2026-12-04T19:30:00Z')],
    ['2026-12-04 19:30:00.250z', Date.parse('2026-12-04T19:30:00.250Z')],
  ])('reads %s', (text, ms) => {
    expect(boundMs(text, NOW)).toBe(ms);
  });

  it.each([
    '',
    '0m',
    '15',
    'm',
    '1y',
    '-1h',
    '99999999d',
    '2026-12-04',
    '2026-12-04T19:30:00',
    'yesterday',
    '2026-13-40T99:00Z',
    '1h; drop',
  ])('refuses %j', (text) => {
    expect(boundMs(text, NOW)).toBeNull();
  });

  it('keeps durations apart from instants', () => {
    expect(agoMs('6h')).toBe(6 * 3_600_000);
    expect(agoMs('2026-12-04T19:30:00Z')).toBeNull();
  });

  it('is inclusive at since, exclusive at until, and outside for an unknown time', () => {
    const r = { since: '2026-12-04T19:00:00.000Z', until: '2026-12-04T20:00:00.000Z' };
    expect(inRange(Date.parse(r.since), r)).toBe(true);
    expect(inRange(Date.parse(r.until) - 1, r)).toBe(true);
    expect(inRange(Date.parse(r.until), r)).toBe(false);
    expect(inRange(Date.parse(r.since) - 1, r)).toBe(false);
    expect(inRange(null, r)).toBe(false);
    expect(inRange(null, {})).toBe(true);
  });

  it('names until when it is not after since', () => {
    expect(rangeProblem({ since: '2026-12-04T20:00:00Z', until: '2026-12-04T20:00:00Z' })).toMatchObject({ field: 'until' });
    expect(rangeProblem({ since: '2026-12-04T19:00:00Z', until: '2026-12-04T20:00:00Z' })).toBeNull();
    expect(rangeProblem({ since: '2026-12-04T19:00:00Z' })).toBeNull();
  });

  it('says the range in words', () => {
    expect(describeRange({ since: '1h' })).toBe('in the last 1h');
    expect(describeRange({ since: '2h', until: '1h' })).toBe('from 2h ago until 1h ago');
    expect(describeRange({ until: '2026-12-04T19:00:00.000Z' })).toBe('before 2026-12-04T19:00:00.000Z');
    expect(describeRange({})).toBeNull();
  });
});

describe('the dead-letter query', () => {
  it('resolves a duration to an instant when read, so what reaches an adapter is absolute', () => {
    const before = Date.now();
    const q = ZDeadListQuery.parse({ since: '1h' });
    const since = Date.parse(q.since!);
    expect(since).toBeGreaterThanOrEqual(before - 3_600_000);
    expect(since).toBeLessThanOrEqual(Date.now() - 3_600_000);
    expect(q.until).toBeUndefined();
    expect(ZDeadListQuery.parse({ since: '' }).since).toBeUndefined();
  });

  it('refuses a bad bound under its field', () => {
    const r = ZDeadListQuery.safeParse({ until: 'tomorrow' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({ path: ['until'], message: expect.stringMatching(/not a time.*15m/) });
  });
});
