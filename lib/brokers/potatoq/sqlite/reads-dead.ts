import 'server-only';
import type Database from 'better-sqlite3';
import type { DeadDetail, DeadGroups, DeadGroupsQuery, DeadListQuery, DeadSummary, Page } from '@/lib/brokers/schema';
import { decodePayload } from '@/lib/potatoq';
import { reasonSummary } from '@/lib/pyvalues';
import { DeadGrouper, newestWindowNote, SCOPE_COUNT_WINDOWS } from '@/lib/triage/groups';
import { reasonTriage } from '@/lib/triage/reason-fingerprint';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { isoFromEpoch, msFromEpoch, preview, rawParts, type Stored } from '../mappers';
import { readResult } from './reads-tasks';
import { containsPattern, PAYLOAD_FOR_PREVIEW, Where } from './sql';
import { messageView } from '@/lib/potatoq/view';
import { IX } from './reads-overview';
import { rangeMs, type TimeRange } from '@/lib/brokers/time-range';

interface DeadRow {
  id: string;
  queue: string;
  task: string;
  reason: string | null;
  died_at: number | null;
  payload: Stored | null;
  size: number;
}

function summary(r: DeadRow): DeadSummary {
  return {
    id: r.id,
    queue: r.queue,
    task: r.task,
    summary: reasonSummary(r.reason ?? ''),
    diedAt: isoFromEpoch(r.died_at),
    preview: preview(r.payload, r.size),
  };
}

/** The range is a range of the `dead_died` index (died_at is REAL epoch seconds). */
function addDiedRange(where: Where, q: TimeRange): Where {
  const range = rangeMs(q);
  if (range.from !== null) where.add('died_at >= ?', range.from / 1000);
  if (range.to !== null) where.add('died_at < ?', range.to / 1000);
  return where;
}

/**
 * Newest first (`died_at DESC, id`, as `potatoq dead list` orders them) on potatoq's
 * `dead_died` index; the cursor starts with a range on it. Text search and group filters look
 * only at the newest `window` letters (potatoq keeps `dead_letter_max` = 10,000 by default).
 * A queue or task filter has no index: the newest letters are walked until the page is full.
 * A time range (`since`/`until`) bounds the same index.
 */
export function listDead(db: Database.Database, q: DeadListQuery, window: number): Page<DeadSummary> {
  const scope = 'dead';
  const where = new Where().addIf(q.queue, 'queue = ?', q.queue).addIf(q.task, 'task = ?', q.task).addIf(q.id, 'instr(id, ?) = 1', q.id);
  if (q.q) {
    const p = containsPattern(q.q);
    if (q.qIn === 'reason') where.add(`reason LIKE ? ESCAPE '\\'`, p);
    else where.add(`(reason LIKE ? ESCAPE '\\' OR payload LIKE ? ESCAPE '\\')`, p, p);
  }
  addDiedRange(where, q);
  const after = decodeCursor(scope, q.cursor, 3);
  if (after) where.add('died_at <= ? AND (died_at < ? OR id > ?)', after[0], after[1], after[2]);
  const bounded = q.q !== undefined || q.group !== undefined;
  const from = bounded
    ? `(SELECT * FROM potatoq_dead INDEXED BY ${IX.dead} ORDER BY died_at DESC LIMIT ${Math.trunc(window)})`
    : `potatoq_dead INDEXED BY ${IX.dead}`;
  const sql = `SELECT id, queue, task, reason, died_at, ${PAYLOAD_FOR_PREVIEW} FROM ${from} ${where} ORDER BY died_at DESC, id`;
  let rows: DeadRow[];
  if (q.group === undefined) {
    rows = db.prepare(`${sql} LIMIT ?`).all(...where.params, q.limit + 1) as DeadRow[];
  } else {
    // The group is the reason's fingerprint, which SQL can't compute: the window is walked in order.
    rows = [];
    for (const r of db.prepare(sql).iterate(...where.params) as IterableIterator<DeadRow>) {
      if (reasonTriage(r.reason).fp.key !== q.group) continue;
      rows.push(r);
      if (rows.length > q.limit) break;
    }
  }
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map(summary),
    nextCursor: more && last ? encodeCursor(scope, [last.died_at, last.died_at, last.id]) : null,
    ...(bounded ? { searchedNewest: window } : {}),
  };
}

/** Groups by fingerprint over the newest `window` letters (the `searchWindow` option) of the
 *  time range, if any (a range of the same index); when the window is full, the letters beyond it
 *  are counted (up to SCOPE_COUNT_WINDOWS windows) for the scope's words. */
export function deadGroups(db: Database.Database, q: DeadGroupsQuery, window: number): DeadGroups {
  const where = addDiedRange(new Where().addIf(q.queue, 'queue = ?', q.queue), q);
  const groups = new DeadGrouper();
  const limit = Math.trunc(window);
  const stmt = db.prepare(
    `SELECT id, reason, task, queue, died_at FROM potatoq_dead INDEXED BY ${IX.dead} ${where} ORDER BY died_at DESC LIMIT ${limit}`,
  );
  let read = 0;
  for (const r of stmt.iterate(...where.params) as IterableIterator<Pick<DeadRow, 'id' | 'reason' | 'task' | 'queue' | 'died_at'>>) {
    const t = reasonTriage(r.reason);
    groups.add({ id: r.id, task: r.task, queue: r.queue, diedAtMs: msFromEpoch(r.died_at), summary: t.summary, fp: t.fp });
    read++;
  }
  if (read < limit) return groups.answer();
  const cap = limit * SCOPE_COUNT_WINDOWS;
  const { n } = db
    .prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM potatoq_dead INDEXED BY ${IX.dead} ${where} LIMIT ${cap + 1})`)
    .get(...where.params) as { n: number };
  const total = { n: Math.min(n, cap), how: n > cap ? 'more than' : 'exact' } as const;
  return groups.answer(n > read ? newestWindowNote({ window: read, total, why: 'the searchWindow option' }) : null);
}

export function getDead(db: Database.Database, id: string): DeadDetail | null {
  const r = db.prepare('SELECT id, queue, task, reason, died_at, payload FROM potatoq_dead WHERE id = ?').get(id) as
    (DeadRow & { payload: Stored }) | undefined;
  if (!r) return null;
  const full = r.payload;
  const base = summary({
    ...r,
    payload: full.length <= 65536 ? full : null,
    size: typeof full === 'string' ? Buffer.byteLength(full) : full.length,
  });
  return { ...base, reason: r.reason, payload: messageView(decodePayload(full)), ...rawParts(full), result: readResult(db, id) };
}
