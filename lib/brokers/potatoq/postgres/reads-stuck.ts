import 'server-only';
import { STUCK_IDS } from '@/lib/brokers/dto';
import type { OverdueFact, RunningFact } from '../diagnose';
import { OVERDUE_COUNT_CAP, RUNNING_CHECK_LIMIT, STUCK_PAYLOAD_LIMIT } from '../stuck-limits';
import type { PgNames } from './names';
import type { Sql } from './pool';

// Bounded reads for the stuck-work diagnosis, timed on the server's clock (`now()`) as
// potatoq's recovery is. The state is a literal so potatoq's partial indexes match.

export async function runningFacts(sql: Sql, n: PgNames): Promise<{ rows: RunningFact[]; capped: boolean }> {
  const rows = await sql<{
    id: string;
    queue: string;
    task: string;
    worker: string | null;
    running_for: number | null;
    payload: string | null;
  }>(
    `SELECT id, queue, task, worker, extract(epoch FROM now() - claimed_at)::float8 AS running_for,
            CASE WHEN length(payload) <= ${STUCK_PAYLOAD_LIMIT} THEN payload END AS payload
     FROM ${n.jobs} WHERE state = 2 ORDER BY claimed_at NULLS FIRST, seq LIMIT $1`,
    [RUNNING_CHECK_LIMIT + 1],
  );
  return {
    capped: rows.length > RUNNING_CHECK_LIMIT,
    rows: rows.slice(0, RUNNING_CHECK_LIMIT).map((r) => ({
      id: r.id,
      queue: r.queue,
      task: r.task,
      worker: r.worker,
      runningFor: r.running_for === null ? null : Math.max(0, r.running_for),
      payload: r.payload,
    })),
  };
}

export async function overdueFacts(sql: Sql, n: PgNames, overdueSeconds: number): Promise<OverdueFact[]> {
  const rows = await sql<{ queue: string; n: string; oldest: number }>(
    `SELECT queue, count(*) AS n, max(extract(epoch FROM now() - run_at))::float8 AS oldest FROM
       (SELECT queue, run_at FROM ${n.jobs} WHERE state = 0 AND run_at < now() - make_interval(secs => $1) ORDER BY run_at LIMIT $2) s
     GROUP BY queue ORDER BY oldest DESC`,
    [overdueSeconds, OVERDUE_COUNT_CAP + 1],
  );
  const capped = rows.reduce((s, r) => s + Number(r.n), 0) > OVERDUE_COUNT_CAP;
  const out: OverdueFact[] = [];
  for (const [i, r] of rows.entries()) {
    // Ids for the most overdue queues only: one indexed query each, bounded.
    if (i >= STUCK_IDS) {
      out.push({ queue: r.queue, count: Number(r.n), capped, oldestSeconds: Math.max(0, r.oldest), ids: [] });
      continue;
    }
    const ids = await sql<{ id: string }>(
      `SELECT id FROM ${n.jobs} WHERE state = 0 AND queue = $1 AND run_at < now() - make_interval(secs => $2) ORDER BY run_at LIMIT $3`,
      [r.queue, overdueSeconds, STUCK_IDS],
    );
    out.push({ queue: r.queue, count: Number(r.n), capped, oldestSeconds: Math.max(0, r.oldest), ids: ids.map((x) => x.id) });
  }
  return out;
}
