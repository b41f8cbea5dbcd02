import { describe, expect, it } from 'vitest';
import { overview } from '@/tests/support/component-fixtures';
import { parseInput } from './parse-input';
import { asksForPage, pageQueues, ZQueuePageQuery } from './queue-page';

const many = (n: number) =>
  overview('b', {
    queues: Array.from({ length: n }, (_, i) => ({ name: `tenant-${String(i).padStart(4, '0')}`, ready: i, scheduled: 0 })),
  });

describe('pageQueues', () => {
  it('cuts one page in the adapter order and says how many there are; totals stay whole', () => {
    const o = many(5000);
    const p = pageQueues(o, { search: undefined, offset: 4990, limit: 50 });
    expect(p.queues.map((q) => q.name)).toEqual(Array.from({ length: 10 }, (_, i) => `tenant-${4990 + i}`));
    expect(p.queuePage).toEqual({ offset: 4990, limit: 50, matched: 5000, total: 5000 });
    expect(p.totals).toBe(o.totals);
    expect(o.queues).toHaveLength(5000);
  });
  it('searches names in any case, pages the matches, and an empty match is an empty page', () => {
    const o = many(5000);
    const p = pageQueues(o, { search: 'TENANT-12', offset: 50, limit: 50 });
    // tenant-1200…1299: 100 names, the second page holds the last 50 of them.
    expect(p.queuePage).toEqual({ offset: 50, limit: 50, matched: 100, total: 5000, search: 'TENANT-12' });
    expect(p.queues).toHaveLength(50);
    expect(p.queues.every((q) => q.name.includes('tenant-12'))).toBe(true);
    expect(pageQueues(o, { search: 'nope', offset: 0, limit: 50 }).queues).toEqual([]);
  });
  it('reads its query with defaults; bad input names the field', () => {
    const q = (s: string) => parseInput(ZQueuePageQuery, Object.fromEntries(new URLSearchParams(s)));
    expect(q('search=%20a%20')).toEqual({ search: 'a', offset: 0, limit: 50 });
    expect(q('search=')).toEqual({ search: undefined, offset: 0, limit: 50 });
    for (const [s, field] of [
      ['limit=501', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=x', 'offset'],
      [`search=${'a'.repeat(201)}`, 'search'],
    ])
      expect(() => q(s!)).toThrow(new RegExp(field!));
    expect(asksForPage(new URLSearchParams('limit=5'))).toBe(true);
    expect(asksForPage(new URLSearchParams('other=5'))).toBe(false);
  });
});
