import 'server-only';
import type { DeadHistogram, DeadHistogramQuery } from '@/lib/brokers/schema';
import { bucketTimes } from '@/lib/trends/ranges';
import type { QfClient } from './client';
import { letterFingerprint } from './dead';
import { collectRows } from './pages';
import { cursorAfter, parseWire, ZDeadPage, type QfDeadLetter } from './wire';

// QueueFlow's dead letters per bucket of when they died: each letter's `created_at` (the server
// writes the letter when the job dies). The DLQ list filters by that time on the server
// (`created_after` / `created_before`), newest first, so one answer pages through the window's
// letters only, at most HISTOGRAM_WINDOW of them (the newest; `scannedNewest` says so past it).
// Replayed letters count too: QueueFlow keeps them, and they died when they died.

/** The most letters one answer reads. */
export const HISTOGRAM_WINDOW = 10_000;

export async function deadHistogramQf(client: QfClient, q: DeadHistogramQuery): Promise<DeadHistogram> {
  const from = new Date(q.fromMs).toISOString();
  const to = new Date(q.fromMs + q.bucketMs * q.buckets).toISOString();
  const got = await collectRows(
    async (cursor: string | undefined, limit: number) => {
      const raw = await client.get('/api/v1/dlq', { queue: q.queue, created_after: from, created_before: to, limit, cursor });
      const page = parseWire(ZDeadPage, raw, 'the dead-letter list');
      return { rows: page.dead_letters, hasMore: page.has_more, next: page.next_cursor ?? null };
    },
    (d: QfDeadLetter) => cursorAfter(d.created_at, d.id),
    HISTOGRAM_WINDOW,
    undefined,
  );
  const times = got.rows
    .filter((d) => q.group === undefined || letterFingerprint(d).key === q.group)
    .map((d) => {
      const t = Date.parse(d.created_at);
      return Number.isFinite(t) ? t : null;
    });
  return { ...bucketTimes(times, q), scannedNewest: got.next ? got.rows.length : null };
}
