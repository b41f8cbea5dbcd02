import 'server-only';
import type Database from 'better-sqlite3';
import type { QueueStats, WorkerInfo } from '@/lib/brokers/schema';
import { isoFromEpoch } from '../mappers';
import { HEAD_CHECK_LIMIT, headBlock } from '../head-block';
import { applyScans, emptyQueue, readyCapWhy, withWorkerQueues, type StateScan } from '../counts';

// potatoq's index names (26.1a8 schema); `INDEXED BY` makes SQLite walk them whatever its
// statistics (usually none: potatoq never runs ANALYZE) say, and fails loudly if one is gone.
export const IX = {
  ready: 'potatoq_jobs_ready',
  scheduled: 'potatoq_jobs_scheduled',
  running: 'potatoq_jobs_running',
  dead: 'potatoq_dead_died',
} as const;

/** The queues with ready work, by a loose scan of `jobs_ready` (one index probe per queue). */
export function readyQueueNames(db: Database.Database): string[] {
  const next = db
    .prepare(`SELECT queue FROM potatoq_jobs INDEXED BY ${IX.ready} WHERE state = 1 AND queue > ? ORDER BY queue LIMIT 1`)
    .pluck();
  const out: string[] = [];
  for (let q = next.get('') as string | undefined; q !== undefined; q = next.get(q) as string | undefined) out.push(q);
  // An empty queue name sorts first and is not `> ''`.
  const empty = db.prepare(`SELECT 1 FROM potatoq_jobs INDEXED BY ${IX.ready} WHERE state = 1 AND queue = '' LIMIT 1`).get();
  return empty ? ['', ...out] : out;
}

/** How far the overview counts: each queue's ready rows up to `cap`; each other state's rows
 *  (all queues at once: potatoq has no per-queue index for them) up to `scan`. */
export interface CountLimits {
  cap: number;
  scan: number;
}

/**
 * Per-queue counts that never walk a whole table: each queue's ready rows are counted on
 * `jobs_ready` up to `cap + 1`; scheduled, running and dead letters from one scan of at most
 * `scan + 1` index entries each, exact for every queue when the scan finishes. Past a bound a
 * count is a lower bound (`capped`, no estimate: SQLite keeps none), for every queue the
 * unfinished scan did not reach as well. The oldest ready task is the lowest seq among each
 * priority's first entry.
 */
export function overviewQueues(db: Database.Database, workers: WorkerInfo[], limits: CountLimits): QueueStats[] {
  const { cap, scan } = limits;
  const ready: QueueStats[] = [];
  const count = db
    .prepare(
      `SELECT count(*) FROM (SELECT 1 FROM potatoq_jobs INDEXED BY ${IX.ready} WHERE state = 1 AND queue = ? ORDER BY priority DESC, seq LIMIT ?)`,
    )
    .pluck();
  const first = db.prepare(
    `SELECT priority, seq, created_at FROM potatoq_jobs INDEXED BY ${IX.ready} WHERE state = 1 AND queue = ? AND priority < ?
     ORDER BY priority DESC, seq LIMIT 1`,
  );
  const head = db.prepare(
    `SELECT id, task, CASE WHEN length(CAST(payload AS BLOB)) <= ${HEAD_CHECK_LIMIT} THEN payload END AS payload
     FROM potatoq_jobs INDEXED BY ${IX.ready} WHERE state = 1 AND queue = ? ORDER BY priority DESC, seq LIMIT 1`,
  );
  for (const name of readyQueueNames(db)) {
    const s = emptyQueue(name);
    ready.push(s);
    const n = Number(count.get(name, cap + 1));
    if (n > cap) s.capped = { ready: { atLeast: cap, estimate: null, why: readyCapWhy(cap) } };
    s.counts.ready = Math.min(n, cap);
    let oldest: { seq: number; created_at: number } | null = null;
    let below = Number.MAX_SAFE_INTEGER;
    for (let r = first.get(name, below) as { priority: number; seq: number; created_at: number } | undefined; r;) {
      if (!oldest || r.seq < oldest.seq) oldest = r;
      below = r.priority;
      r = first.get(name, below) as typeof r;
    }
    s.oldestWaitingAt = isoFromEpoch(oldest?.created_at ?? null);
    s.blockedBy = headBlock(head.get(name) as { id: string; task: string; payload: string | Buffer | null } | undefined);
  }
  const samples: Array<[StateScan['key'], string]> = [
    ['scheduled', `SELECT queue FROM potatoq_jobs INDEXED BY ${IX.scheduled} WHERE state = 0 ORDER BY run_at LIMIT ?`],
    ['running', `SELECT queue FROM potatoq_jobs INDEXED BY ${IX.running} WHERE state = 2 ORDER BY worker, pid LIMIT ?`],
    ['dead', `SELECT queue FROM potatoq_dead INDEXED BY ${IX.dead} ORDER BY died_at DESC LIMIT ?`],
  ];
  const scans = samples.map(([key, sample]): StateScan => {
    const rows = db.prepare(`SELECT queue, count(*) AS n FROM (${sample}) GROUP BY queue`).all(scan + 1) as Array<{
      queue: string;
      n: number;
    }>;
    return { key, rows: rows.map((r) => ({ queue: r.queue, n: Number(r.n) })), limit: scan };
  });
  // Queues a live worker consumes are shown even when empty.
  return applyScans(withWorkerQueues(ready, workers), scans);
}
