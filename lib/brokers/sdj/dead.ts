import 'server-only';
import type { DeadGroups, DeadGroupsQuery, DeadHistogram, DeadHistogramQuery } from '@/lib/brokers/schema';
import type { TimeRange } from '@/lib/brokers/time-range';
import { DeadGrouper, newestWindowNote, SCOPE_COUNT_WINDOWS, type LetterTotal } from '@/lib/triage/groups';
import { bucketTimes } from '@/lib/trends/ranges';
import { isoOf, type SdjDb } from './db';
import { listDeadLetters, SUMMARY_COLUMNS, toSummary } from './jobs';
import { letterFingerprint, summaryOf } from './views';

// Dead letters grouped and counted over time, on `idx_jobs_dead_lettered_at` (newest first): the
// groups read the newest GROUP_WINDOW letters, the histogram the letters that died in its window
// (at most HISTOGRAM_WINDOW, the newest).

export const GROUP_WINDOW = 10_000;
export const HISTOGRAM_WINDOW = 10_000;
const PAGE = 500;

/** Letters in all (of a queue), counted up to SCOPE_COUNT_WINDOWS windows on the index. */
async function countLetters(db: SdjDb, q: { queue?: string } & TimeRange, window: number): Promise<LetterTotal> {
  const cap = window * SCOPE_COUNT_WINDOWS;
  const terms: Array<[string, unknown]> = [];
  if (q.queue !== undefined) terms.push(['queue = ?', q.queue]);
  if (q.since !== undefined) terms.push(['dead_lettered_at >= ?', new Date(q.since)]);
  if (q.until !== undefined) terms.push(['dead_lettered_at < ?', new Date(q.until)]);
  const and = terms.map(([t]) => ` AND ${t}`).join('');
  const [row] = await db.all(
    `SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM jobs WHERE dead_lettered_at IS NOT NULL${and} LIMIT ${cap + 1}) x`,
    terms.map(([, v]) => v),
  );
  const n = Number(row?.n ?? 0);
  return n > cap ? { n: cap, how: 'more than' } : { n, how: 'exact' };
}

/** The newest `window` letters (of the time range, on the same index) grouped. */
export async function deadGroups(db: SdjDb, q: DeadGroupsQuery, window = GROUP_WINDOW): Promise<DeadGroups> {
  const groups = new DeadGrouper();
  let cursor: string | null = null;
  let read = 0;
  for (;;) {
    const page = await listDeadLetters(db, {
      queue: q.queue,
      since: q.since,
      until: q.until,
      limit: Math.min(PAGE, window - read),
      cursor,
    });
    for (const j of page.items)
      groups.add({
        id: j.id,
        task: j.type,
        queue: j.queue,
        diedAtMs: j.deadLetteredAt ? Date.parse(j.deadLetteredAt) : null,
        summary: summaryOf(j),
        fp: letterFingerprint(j),
      });
    read += page.items.length;
    if (!page.next) return groups.answer();
    if (read >= window) break;
    cursor = page.next;
  }
  const total = await countLetters(db, q, window);
  const why = `the console groups at most the ${window.toLocaleString('en-US')} newest dead letters, read on the library's dead_lettered_at index`;
  return groups.answer(newestWindowNote({ window: read, total, why }));
}

export async function deadHistogram(db: SdjDb, q: DeadHistogramQuery, cap = HISTOGRAM_WINDOW): Promise<DeadHistogram> {
  const from = new Date(q.fromMs);
  const to = new Date(q.fromMs + q.bucketMs * q.buckets);
  const params: unknown[] = [from, to, ...(q.queue === undefined ? [] : [q.queue])];
  // The group needs each letter's reason; the plain count only its time.
  const cols = q.group === undefined ? 'dead_lettered_at' : SUMMARY_COLUMNS;
  const rows = await db.all(
    `SELECT ${cols} FROM jobs WHERE dead_lettered_at >= ? AND dead_lettered_at < ?${q.queue === undefined ? '' : ' AND queue = ?'}
      ORDER BY dead_lettered_at DESC LIMIT ${cap + 1}`,
    params,
  );
  const kept = rows.slice(0, cap);
  const times = kept
    .filter((r) => q.group === undefined || letterFingerprint(toSummary(r)).key === q.group)
    .map((r) => {
      const t = Date.parse(isoOf(r.dead_lettered_at) ?? '');
      return Number.isFinite(t) ? t : null;
    });
  return { ...bucketTimes(times, q), scannedNewest: rows.length > cap ? cap : null };
}
