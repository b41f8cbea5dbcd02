import { describe, expect, it } from 'vitest';
import { describeFilter } from './bulk-text';

describe("a bulk job's filter in words", () => {
  it('says which time a frozen range is of: enqueued for tasks, died for letters', () => {
    const since = '2026-12-04T19:00:00.000Z';
    expect(describeFilter({ state: 'ready', queue: 'emails', since })).toBe(`ready tasks, queue emails, enqueued since ${since}`);
    expect(describeFilter({ queue: 'emails', since })).toBe(`queue emails, died since ${since}`);
  });
});
