import 'server-only';
import type { CappedCount, CountKey, QueueStats, WorkerInfo } from '../schema';
import type { PgNames } from './names';
import type { Sql } from './pool';
import { isoFromEpoch } from '../sqlite/mappers';

type Count = { n: number; capped?: CappedCount };

/** The planner's row estimate for a query (never runs it). */
async function estimate(sql: Sql, query: string, params: unknown[] = []): Promise<number | null> {
  const [row] = await sql<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${query}`, params);
  const plan = (row?.['QUERY PLAN'] as Array<{ Plan?: { 'Plan Rows'?: number } }> | undefined)?.[0]?.Plan?.['Plan Rows'];
  return typeof plan === 'number' ? Math.round(plan) : null;
}

/**
 * Per-queue counts that never block on a full `count(*)`: ready counts walk potatoq's
 * `jobs_ready` partial index per queue up to `cap`; scheduled, running and dead letters are
 * counted from a bounded scan of `cap` rows. Past the cap a count carries `capped` with the
 * planner's estimate (split across queues by their share of the scanned rows). The state is
 * a literal in the SQL so the partial indexes match.
 */
export async function overviewQueues(read: <T>(fn: (sql: Sql) => Promise<T>) => Promise<T>, n: PgNames, cap: number): Promise<QueueStats[]> {
  const J = n.jobs;
  const readyP = read((sql) => readyCounts(sql, n, cap));
  const sampled: Array<[CountKey, string, string]> = [
    ['scheduled', `SELECT queue FROM ${J} WHERE state = 0 LIMIT $1`, `SELECT 1 FROM ${J} WHERE state = 0`],
    ['running', `SELECT queue FROM ${J} WHERE state = 2 LIMIT $1`, `SELECT 1 FROM ${J} WHERE state = 2`],
    ['dead', `SELECT queue FROM ${n.dead} LIMIT $1`, `SELECT 1 FROM ${n.dead}`],
  ];
  // Independent statements on separate pooled connections, so they run at the same time.
  const samplesP = Promise.all(
    sampled.map(([key, sample, whole]) =>
      read(async (sql) => {
        const rows = await sql<{ queue: string; n: string }>(`SELECT queue, count(*) AS n FROM (${sample}) s GROUP BY queue`, [cap + 1]);
        const total = rows.reduce((t, r) => t + Number(r.n), 0);
        return { key, rows, total, est: total > cap ? await estimate(sql, whole) : null };
      }),
    ),
  );
  const [ready, samples] = await Promise.all([readyP, samplesP]);
  return merge(ready, samples, cap);
}

interface ReadyRow {
  queue: string;
  n: number;
  oldest: number | null;
  estimate: number | null;
}

async function readyCounts(sql: Sql, n: PgNames, cap: number): Promise<ReadyRow[]> {
  const J = n.jobs;
  const rows = await sql<{ queue: string; n: string; oldest: number | null }>(
    `WITH RECURSIVE qs AS (
       (SELECT queue FROM ${J} WHERE state = 1 ORDER BY queue LIMIT 1)
       UNION ALL
       SELECT (SELECT j.queue FROM ${J} j WHERE j.state = 1 AND j.queue > qs.queue ORDER BY j.queue LIMIT 1) FROM qs WHERE qs.queue IS NOT NULL)
     SELECT qs.queue,
       (SELECT count(*) FROM (SELECT 1 FROM ${J} j WHERE j.state = 1 AND j.queue = qs.queue LIMIT $1) s) AS n,
       (SELECT extract(epoch FROM o.created_at)::float8 FROM ${J} o WHERE o.seq = (
          WITH RECURSIVE p AS (
            (SELECT j.priority, j.seq FROM ${J} j WHERE j.state = 1 AND j.queue = qs.queue ORDER BY j.priority DESC, j.seq LIMIT 1)
            UNION ALL
            SELECT x.priority, x.seq FROM p CROSS JOIN LATERAL (SELECT j.priority, j.seq FROM ${J} j
              WHERE j.state = 1 AND j.queue = qs.queue AND j.priority < p.priority ORDER BY j.priority DESC, j.seq LIMIT 1) x)
          SELECT min(p.seq) FROM p)) AS oldest
     FROM qs WHERE qs.queue IS NOT NULL`,
    [cap + 1],
  );
  const out: ReadyRow[] = [];
  for (const r of rows) {
    const count = Number(r.n);
    const est = count > cap ? await estimate(sql, `SELECT 1 FROM ${J} WHERE state = 1 AND queue = $1`, [r.queue]) : null;
    out.push({ queue: r.queue, n: count, oldest: r.oldest, estimate: est });
  }
  return out;
}

type Sample = { key: CountKey; rows: Array<{ queue: string; n: string }>; total: number; est: number | null };

function merge(ready: ReadyRow[], samples: Sample[], cap: number): QueueStats[] {
  const stats = new Map<string, QueueStats>();
  const get = (name: string): QueueStats => {
    let s = stats.get(name);
    if (!s) stats.set(name, (s = { name, ready: 0, scheduled: 0, running: 0, dead: 0, oldestReadyAt: null, tasks: null }));
    return s;
  };
  const put = (s: QueueStats, k: CountKey, c: Count) => {
    s[k] = c.n;
    if (c.capped) (s.capped ??= {})[k] = c.capped;
  };
  for (const r of ready) {
    const s = get(r.queue);
    s.oldestReadyAt = isoFromEpoch(r.oldest);
    if (r.n <= cap) put(s, 'ready', { n: r.n });
    else put(s, 'ready', { n: cap, capped: { atLeast: cap, estimate: r.estimate === null ? null : Math.max(r.estimate, cap + 1) } });
  }
  for (const { key, rows, total, est } of samples) {
    for (const r of rows) {
      const c = Number(r.n);
      if (total <= cap) put(get(r.queue), key, { n: c });
      // Only a lower bound for this queue: the scan stopped at `cap` rows in total.
      else put(get(r.queue), key, { n: c, capped: { atLeast: c, estimate: est === null ? null : Math.max(c, Math.round((est * c) / total)) } });
    }
  }
  return [...stats.values()];
}

/** Adds the queues a live worker consumes (shown even when empty), sorted by name. */
export function withWorkerQueues(queues: QueueStats[], workers: WorkerInfo[]): QueueStats[] {
  const names = new Set(queues.map((q) => q.name));
  const out = [...queues];
  for (const w of workers) {
    if (w.status === 'dead') continue;
    for (const q of w.queues) {
      if (names.has(q)) continue;
      names.add(q);
      out.push({ name: q, ready: 0, scheduled: 0, running: 0, dead: 0, oldestReadyAt: null, tasks: null });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Sums per-queue counts; a total built from a capped count is itself a lower bound. */
export function totalsOf(queues: QueueStats[]) {
  const keys: CountKey[] = ['ready', 'scheduled', 'running', 'dead'];
  const totals = { ready: 0, scheduled: 0, running: 0, dead: 0 } as Record<CountKey, number>;
  const capped: Partial<Record<CountKey, CappedCount>> = {};
  for (const k of keys) {
    let est = 0;
    let anyCapped = false;
    let estKnown = true;
    for (const q of queues) {
      totals[k] += q[k] ?? 0;
      const c = q.capped?.[k];
      if (c) {
        anyCapped = true;
        if (c.estimate === null) estKnown = false;
        est += c.estimate ?? 0;
      } else est += q[k] ?? 0;
    }
    if (anyCapped) capped[k] = { atLeast: totals[k], estimate: estKnown ? est : null };
  }
  return { totals, capped: Object.keys(capped).length ? capped : undefined };
}
