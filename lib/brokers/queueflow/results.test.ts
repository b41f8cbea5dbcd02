import { describe, expect, it } from 'vitest';
import { mergeNewest } from './results';
import { cursorAfter, type QfJob } from './wire';

// A status list as QueueFlow pages it: newest first by (created_at, id), `<µs>:<id>` cursors.
function lane(jobs: QfJob[]) {
  const sorted = [...jobs].sort((a, b) => (a.created_at === b.created_at ? (a.id > b.id ? -1 : 1) : a.created_at > b.created_at ? -1 : 1));
  const calls: Array<string | undefined> = [];
  const fetch = async (cursor: string | undefined, limit: number) => {
    calls.push(cursor);
    const from = cursor ? sorted.findIndex((j) => cursorAfter(j.created_at, j.id) === cursor) + 1 : 0;
    const rows = sorted.slice(from, from + Math.min(limit, 100));
    const hasMore = from + rows.length < sorted.length;
    return { rows, hasMore, next: hasMore ? cursorAfter(rows.at(-1)!.created_at, rows.at(-1)!.id) : null };
  };
  return { fetch, calls };
}

const job = (id: string, second: number, status: string): QfJob => ({
  id,
  queue_name: 'q',
  task_name: 't',
  payload: {},
  config: undefined,
  status,
  created_at: `2026-12-01T00:00:${String(second).padStart(2, '0')}.000000Z`,
  scheduled_at: undefined,
  started_at: undefined,
  completed_at: undefined,
  delivery_count: 1,
  retry_count: 0,
  error_message: undefined,
  next_retry_at: undefined,
  metadata: undefined,
  tenant_id: undefined,
  idempotency_key: undefined,
  workflow_id: undefined,
});

describe("QueueFlow's finished jobs of every status, newest first", () => {
  it('merges the three lists in order and pages through each once, without skipping or repeating', async () => {
    const completed = lane([1, 4, 5, 9, 12].map((s) => job(`c${s}`, s, 'completed')));
    const failed = lane([2, 3, 10, 11].map((s) => job(`f${s}`, s, 'failed')));
    const cancelled = lane([6, 7, 8].map((s) => job(`x${s}`, s, 'cancelled')));
    const lanes = [completed.fetch, failed.fetch, cancelled.fetch];
    const seen: string[] = [];
    let at: Array<string | null> | null = ['', '', ''];
    let pages = 0;
    while (at) {
      const got = await mergeNewest(lanes, at, 5);
      seen.push(...got.rows.map((j) => j.id));
      at = got.next;
      pages++;
    }
    expect(seen).toEqual(['c12', 'f11', 'f10', 'c9', 'x8', 'x7', 'x6', 'c5', 'c4', 'f3', 'f2', 'c1']);
    expect(pages).toBe(3);
    // A list that is done is not asked again.
    expect(cancelled.calls.length).toBeLessThan(pages);
  });

  it('keeps a page in order when one list has more than a server page of newer rows', async () => {
    const completed = lane(Array.from({ length: 150 }, (_, i) => job(`c${String(i).padStart(3, '0')}`, 30 + (i % 29), 'completed')));
    const failed = lane([job('f-old', 1, 'failed')]);
    const got = await mergeNewest([completed.fetch, failed.fetch], ['', ''], 500);
    expect(got.rows).toHaveLength(100);
    expect(got.rows.some((j) => j.id === 'f-old')).toBe(false);
    expect(got.next?.[1]).toBe('');
  });
});
