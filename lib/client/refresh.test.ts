import { describe, expect, it } from 'vitest';
import { POLL_JITTER, POLL_MS, jitteredPoll } from './refresh';
import { READ_CACHE_MAX_MS } from '@/lib/config';

describe('poll interval', () => {
  it('stays within POLL_JITTER of 5 s, spread over the whole range', () => {
    expect(jitteredPoll(() => 0)).toBe(POLL_MS * (1 - POLL_JITTER));
    expect(jitteredPoll(() => 0.5)).toBe(POLL_MS);
    expect(jitteredPoll(() => 0.999999)).toBe(POLL_MS * (1 + POLL_JITTER));
  });

  it("stays above the longest shared-read time, so a poll never gets the last poll's answer", () => {
    expect(jitteredPoll(() => 0)).toBeGreaterThan(READ_CACHE_MAX_MS);
  });
});
