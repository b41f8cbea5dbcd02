import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { SdjDb } from './db';
import { listJobs, type SdjJobSummary } from './jobs';
import type { SdjStatus } from './model';
import { cursorAt } from './pages';
import type { TimeRange } from '@/lib/brokers/time-range';

// Finished jobs newest first across statuses: one keyset list per status
// (`idx_jobs_status_created`), merged. The cursor holds each list's own position (null: that list
// is done), so a page reads at most `limit` rows of each list wherever it is.

type Positions = Record<string, string | null | undefined>;

const invalid = () =>
  new ConsoleError('InvalidInput', 'cursor: not a cursor this list gave out', { cursor: 'not a cursor this list gave out' });

function decode(cursor: string | null): Positions {
  if (!cursor) return {};
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const out: Positions = {};
      for (const [k, p] of Object.entries(v)) {
        if (p !== null && typeof p !== 'string') throw invalid();
        out[k] = p;
      }
      return out;
    }
  } catch {
    // refused below
  }
  throw invalid();
}

/** Microseconds as six digits, so two database times compare as text. */
const timeKey = (iso: string | null) =>
  (iso ?? '').replace(/(\d{2}:\d{2}:\d{2})(?:\.(\d+))?/, (_, s: string, f?: string) => `${s}.${(f ?? '').padEnd(6, '0')}`);

/** The list order: created_at newest first, then id ascending (the store's). */
const before = (a: SdjJobSummary, b: SdjJobSummary) => {
  const ta = timeKey(a.createdAt);
  const tb = timeKey(b.createdAt);
  return ta !== tb ? ta > tb : a.id < b.id;
};

export async function mergeFinished(
  db: SdjDb,
  statuses: SdjStatus[],
  limit: number,
  cursor: string | null,
  finished?: TimeRange,
): Promise<{ rows: SdjJobSummary[]; next: string | null }> {
  const at = decode(cursor);
  const lists = await Promise.all(
    statuses.map(async (status) => {
      const pos = at[status];
      if (pos === null) return { status, rows: [] as SdjJobSummary[], more: false };
      const page = await listJobs(db, { status, finished, limit, cursor: pos ?? null });
      return { status, rows: page.items, more: page.next !== null };
    }),
  );
  const all = lists.flatMap((l) => l.rows).sort((a, b) => (before(a, b) ? -1 : 1));
  const rows = all.slice(0, limit);
  const left = all.length > limit || lists.some((l) => l.more);
  if (!left) return { rows, next: null };
  const next: Positions = {};
  for (const l of lists) {
    const taken = rows.filter((r) => r.status === l.status);
    const last = taken.at(-1);
    const exhausted = at[l.status] === null || (!l.more && taken.length === l.rows.length);
    next[l.status] = exhausted ? null : last ? cursorAt(last.createdAt, last.id) : (at[l.status] ?? undefined);
  }
  return { rows, next: Buffer.from(JSON.stringify(next), 'utf8').toString('base64url') };
}
