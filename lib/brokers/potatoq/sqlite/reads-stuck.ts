import 'server-only';
import type Database from 'better-sqlite3';
import { STUCK_IDS } from '@/lib/brokers/dto';
import type { OverdueFact, RunningFact } from '../diagnose';
import { OVERDUE_COUNT_CAP, RUNNING_CHECK_LIMIT, STUCK_PAYLOAD_LIMIT } from '../stuck-limits';
import { IX } from './reads-overview';

// Bounded reads for the stuck-work diagnosis, on potatoq's partial indexes (running rows on
// `jobs_running`, scheduled ones on `jobs_scheduled`). potatoq's SQLite times are REAL Unix seconds
// written by Python's clock; the console compares with its own (same machine as the file).

export function runningFacts(db: Database.Database, now = Date.now() / 1000): { rows: RunningFact[]; capped: boolean } {
  const rows = db
    .prepare(
      `SELECT id, queue, task, worker, claimed_at,
              CASE WHEN length(CAST(payload AS BLOB)) <= ${STUCK_PAYLOAD_LIMIT} THEN payload END AS payload
       FROM potatoq_jobs INDEXED BY ${IX.running} WHERE state = 2 ORDER BY claimed_at, seq LIMIT ?`,
    )
    .all(RUNNING_CHECK_LIMIT + 1) as Array<{
    id: string;
    queue: string;
    task: string;
    worker: string | null;
    claimed_at: number | null;
    payload: string | Buffer | null;
  }>;
  const capped = rows.length > RUNNING_CHECK_LIMIT;
  return {
    capped,
    rows: rows.slice(0, RUNNING_CHECK_LIMIT).map((r) => ({
      id: r.id,
      queue: r.queue,
      task: r.task,
      worker: r.worker,
      runningFor: typeof r.claimed_at === 'number' ? Math.max(0, now - r.claimed_at) : null,
      payload: typeof r.payload === 'string' ? r.payload : r.payload ? r.payload.toString('utf8') : null,
    })),
  };
}

/** Scheduled rows (state 0) due more than `overdueSeconds` ago, per queue: potatoq's
 *  `jobs_scheduled` index on run_at serves the scan, stopped at OVERDUE_COUNT_CAP rows. */
export function overdueFacts(db: Database.Database, overdueSeconds: number, now = Date.now() / 1000): OverdueFact[] {
  const before = now - overdueSeconds;
  const rows = db
    .prepare(
      `SELECT queue, count(*) AS n, min(run_at) AS oldest FROM
         (SELECT queue, run_at FROM potatoq_jobs INDEXED BY ${IX.scheduled} WHERE state = 0 AND run_at < ? ORDER BY run_at LIMIT ?)
       GROUP BY queue ORDER BY oldest`,
    )
    .all(before, OVERDUE_COUNT_CAP + 1) as Array<{ queue: string; n: number; oldest: number }>;
  const capped = rows.reduce((s, r) => s + r.n, 0) > OVERDUE_COUNT_CAP;
  const ids = db
    .prepare(`SELECT id FROM potatoq_jobs INDEXED BY ${IX.scheduled} WHERE state = 0 AND queue = ? AND run_at < ? ORDER BY run_at LIMIT ?`)
    .pluck();
  return rows.map((r, i) => ({
    queue: r.queue,
    count: r.n,
    capped,
    oldestSeconds: Math.max(0, now - r.oldest),
    // Ids for the most overdue queues only: one indexed query each, bounded.
    ids: i < STUCK_IDS ? (ids.all(r.queue, before, STUCK_IDS) as string[]) : [],
  }));
}
