import 'server-only';
import type Database from 'better-sqlite3';
import type { DeadDetail, DeadGroup, DeadListQuery, DeadSummary, Page } from '@/lib/brokers/schema';
import { decodePayload, reasonSummary, reasonSummaryFull } from '@/lib/potatoq';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { isoFromEpoch, preview, rawParts, type Stored } from '../mappers';
import { readResult } from './reads-tasks';
import { containsPattern, PAYLOAD_FOR_PREVIEW, Where } from './sql';
import { messageView } from '../message';

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

/** Newest first (`died_at DESC, id`), as `potatoq dead list` orders them. */
export function listDead(db: Database.Database, q: DeadListQuery): Page<DeadSummary> {
  const scope = 'dead';
  const where = new Where()
    .addIf(q.queue, 'queue = ?', q.queue)
    .addIf(q.task, 'task = ?', q.task)
    .addIf(q.id, 'instr(id, ?) = 1', q.id);
  if (q.q) {
    const p = containsPattern(q.q);
    if (q.qIn === 'reason') where.add(`reason LIKE ? ESCAPE '\\'`, p);
    else where.add(`(reason LIKE ? ESCAPE '\\' OR payload LIKE ? ESCAPE '\\')`, p, p);
  }
  const after = decodeCursor(scope, q.cursor, 3);
  if (after) where.add('(died_at < ? OR (died_at = ? AND id > ?))', ...after);
  const sql = `SELECT id, queue, task, reason, died_at, ${PAYLOAD_FOR_PREVIEW} FROM potatoq_dead ${where} ORDER BY died_at DESC, id`;
  let rows: DeadRow[];
  if (q.group === undefined) {
    rows = db.prepare(`${sql} LIMIT ?`).all(...where.params, q.limit + 1) as DeadRow[];
  } else {
    // The group is the reason's last line, which SQL can't compute; potatoq keeps at most
    // dead_letter_max (10,000) letters, so scanning them in order is cheap.
    rows = [];
    for (const r of db.prepare(sql).iterate(...where.params) as IterableIterator<DeadRow>) {
      if (reasonSummaryFull(r.reason ?? '') !== q.group) continue;
      rows.push(r);
      if (rows.length > q.limit) break;
    }
  }
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return { items: page.map(summary), nextCursor: more && last ? encodeCursor(scope, [last.died_at, last.died_at, last.id]) : null };
}

export function deadGroups(db: Database.Database, q: { queue?: string }): DeadGroup[] {
  const where = new Where().addIf(q.queue, 'queue = ?', q.queue);
  const groups = new Map<string, { count: number; tasks: Set<string>; queues: Set<string>; newest: number | null; oldest: number | null }>();
  const stmt = db.prepare(`SELECT reason, task, queue, died_at FROM potatoq_dead ${where}`);
  for (const r of stmt.iterate(...where.params) as IterableIterator<Pick<DeadRow, 'reason' | 'task' | 'queue' | 'died_at'>>) {
    const key = reasonSummaryFull(r.reason ?? '');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { count: 0, tasks: new Set(), queues: new Set(), newest: null, oldest: null }));
    g.count += 1;
    g.tasks.add(r.task);
    g.queues.add(r.queue);
    if (typeof r.died_at === 'number') {
      g.newest = g.newest === null ? r.died_at : Math.max(g.newest, r.died_at);
      g.oldest = g.oldest === null ? r.died_at : Math.min(g.oldest, r.died_at);
    }
  }
  return [...groups.entries()]
    .map(([summary, g]) => ({
      summary,
      count: g.count,
      tasks: [...g.tasks].sort(),
      queues: [...g.queues].sort(),
      newestAt: isoFromEpoch(g.newest),
      oldestAt: isoFromEpoch(g.oldest),
    }))
    .sort((a, b) => b.count - a.count || (a.summary < b.summary ? -1 : a.summary > b.summary ? 1 : 0));
}

export function getDead(db: Database.Database, id: string): DeadDetail | null {
  const r = db.prepare('SELECT id, queue, task, reason, died_at, payload FROM potatoq_dead WHERE id = ?').get(id) as
    | (DeadRow & { payload: Stored })
    | undefined;
  if (!r) return null;
  const full = r.payload;
  const base = summary({ ...r, payload: full.length <= 65536 ? full : null, size: typeof full === 'string' ? Buffer.byteLength(full) : full.length });
  return { ...base, reason: r.reason, payload: messageView(decodePayload(full)), ...rawParts(full), result: readResult(db, id) };
}
