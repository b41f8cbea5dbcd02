import { describe, expect, it } from 'vitest';
import { cronWords, firingsBetween, nextFirings, parseCron, shortestGapSeconds } from './cron';

const at = (iso: string) => new Date(iso);
const parsed = (e: string) => {
  const p = parseCron(e);
  if (!p.ok) throw new Error(p.error);
  return p.fields;
};
// Friday 2026-12-04 10:13:16 UTC; every expected firing below was QueueFlow 0.6.0's next_run_at.
const NOW = at('2026-12-04T10:13:16Z');

describe('cron as QueueFlow evaluates it', () => {
  it.each([
    ['0 3 * * 1', '2026-12-06T03:00:00.000Z', 'at 03:00 on Sunday UTC'],
    ['0 3 * * 7', '2026-12-05T03:00:00.000Z', 'at 03:00 on Saturday UTC'],
    ['0 3 * * MON', '2026-12-07T03:00:00.000Z', 'at 03:00 on Monday UTC'],
    ['0 3 * * 1-5', '2026-12-06T03:00:00.000Z', 'at 03:00 on Sunday through Thursday UTC'],
    ['*/5 * * * *', '2026-12-04T10:15:00.000Z', 'every 5 minutes UTC'],
    ['@daily', '2026-12-05T00:00:00.000Z', 'at 00:00 UTC'],
    ['0 0 29 2 *', '2028-02-29T00:00:00.000Z', 'at 00:00 on day 29 of the month in February UTC'],
    ['* * * * * *', '2026-12-04T10:13:17.000Z', 'every second UTC'],
  ])('%s fires next at %s (%s)', (expr, next, words) => {
    const f = parsed(expr);
    expect(nextFirings(f, NOW)[0]!.toISOString()).toBe(next);
    expect(cronWords(f)).toBe(words);
  });

  it('refuses what the server refuses, naming why', () => {
    expect(parseCron('0 3 * * 0')).toMatchObject({ ok: false, error: expect.stringMatching(/1 = Sunday/) });
    expect(parseCron('61 * * * *')).toMatchObject({ ok: false, error: expect.stringMatching(/minutes must be within 0-59/) });
    expect(parseCron('0 3 * *')).toMatchObject({ ok: false, error: expect.stringMatching(/has 4/) });
    expect(parseCron('5-1 * * * *')).toMatchObject({ ok: false, error: expect.stringMatching(/backwards/) });
    expect(parseCron('x * * * *').ok).toBe(false);
  });

  it('needs both day fields to match when both are given', () => {
    // The 1st of a month that is also a Monday (2 = Monday): February 2027.
    expect(nextFirings(parsed('0 0 1 * 2'), NOW)[0]!.toISOString()).toBe('2027-02-01T00:00:00.000Z');
  });

  it('measures the shortest gap and counts firings a late one stands for', () => {
    expect(shortestGapSeconds(parsed('*/10 * * * * *'), NOW)).toBe(10);
    expect(shortestGapSeconds(parsed('0 9,17 * * *'), NOW)).toBe(28_800);
    expect(firingsBetween(parsed('*/5 * * * *'), at('2026-12-04T10:00:00Z'), at('2026-12-04T10:30:00Z'))).toBe(6);
  });
});
