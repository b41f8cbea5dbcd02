import 'server-only';
import { HEAD_CHECK_LIMIT, headBlock } from '../head-block';
import type { HeadBlock, QueueStats, WorkerInfo } from '@/lib/brokers/schema';
import { applyScans, emptyQueue, readyCapWhy, scanFinished, withWorkerQueues, type CountKey, type StateScan } from '../counts';
import { isoFromEpoch } from '../mappers';
import type { PgNames } from './names';
import type { Sql } from './pool';
import type { Estimator } from './stats';

/** Connections the ready counts share (the read pool has 6 by default; 3 stay for the rest). */
const READY_SPLIT = 3;
type Read = <T>(fn: (sql: Sql) => Promise<T>) => Promise<T>;

/** The queues the last overview found with ready work, so the next one can count them at once. */
export interface QueueMemo {
  queues: string[];
}

/** How far the overview counts: each queue's ready rows up to `cap`; each other state's rows
 *  (all queues at once: potatoq has no per-queue index for them) up to `scan`. */
export interface CountLimits {
  cap: number;
  scan: number;
}

/**
 * Per-queue counts that never block on a full `count(*)`: ready counts walk potatoq's
 * `jobs_ready` partial index per queue up to `cap` rows; scheduled, running and dead letters
 * are counted per queue from one scan of at most `scan` rows each (potatoq indexes them by
 * time or worker, not by queue), exact for every queue when the scan finishes. Past a bound a
 * count carries `capped` with the planner's estimate (from `pg_stats`, via `estimator`, only
 * loaded when something was capped), for every queue an unfinished scan did not reach as well.
 * The state is a literal in the SQL so the partial indexes match. The statements run at the
 * same time on separate pooled connections; the queues of live `workers` are listed too.
 */
export async function overviewQueues(
  read: Read,
  n: PgNames,
  limits: CountLimits,
  estimator: () => Promise<Estimator | null>,
  memo: QueueMemo = { queues: [] },
  workers: Promise<WorkerInfo[]> = Promise.resolve([]),
): Promise<QueueStats[]> {
  const { cap, scan } = limits;
  const J = n.jobs;
  const sampled: Array<[StateScan['key'], string]> = [
    // Ordered by each index's key, so a scan of the index that stops at the bound is the
    // cheapest plan under any statistics (unordered, a LIMIT looks cheapest as a sequential scan).
    ['scheduled', `SELECT queue FROM ${J} WHERE state = 0 ORDER BY run_at LIMIT $1`],
    ['running', `SELECT queue FROM ${J} WHERE state = 2 ORDER BY worker, pid LIMIT $1`],
    ['dead', `SELECT queue FROM ${n.dead} ORDER BY died_at DESC LIMIT $1`],
  ];
  // The ready counts are the bulk of the work (up to `cap` index entries per queue, each a heap
  // visit while the visibility map is unset, as on a live table): split the queues over
  // `READY_SPLIT` connections. Each queue's next claim is read alongside the counts.
  const countAndHeads = async (queues: string[]): Promise<[Map<string, number>, Map<string, Head>]> => {
    if (!queues.length) return [new Map(), new Map()];
    const size = Math.ceil(queues.length / READY_SPLIT);
    const parts = Array.from({ length: READY_SPLIT }, (_, i) => queues.slice(i * size, (i + 1) * size)).filter((p) => p.length);
    const [counts, heads] = await Promise.all([
      Promise.all(parts.map((p) => read((sql) => readyCounts(sql, n, cap, p)))),
      read((sql) => readyHeads(sql, n, queues)),
    ]);
    return [new Map(counts.flat().map((c) => [c.queue, c.n])), heads];
  };
  // Counting waits for the list of queues unless it is known: the queues the last overview
  // found are counted at once, alongside the list, and only queues new since then after it.
  // A known queue no longer in the list is dropped, so the answer is what the list says.
  const known = new Set(memo.queues);
  const early = countAndHeads(memo.queues);
  early.catch(() => undefined); // awaited below; this only keeps a failure before that from being unhandled
  const readyP = read((sql) => readyQueues(sql, n)).then(async (queues) => {
    memo.queues = queues.map((q) => q.queue);
    const [[c1, h1], [c2, h2]] = await Promise.all([early, countAndHeads(memo.queues.filter((q) => !known.has(q)))]);
    return queues.map((q) => ({
      ...q,
      n: c1.get(q.queue) ?? c2.get(q.queue) ?? 0,
      blockedBy: headBlock(h1.get(q.queue) ?? h2.get(q.queue)),
    }));
  });
  const [ready, live, ...scans] = await Promise.all([
    readyP,
    workers,
    ...sampled.map(([key, sample]) =>
      read(async (sql): Promise<StateScan> => {
        const rows = await sql<{ queue: string; n: string }>(`SELECT queue, count(*) AS n FROM (${sample}) s GROUP BY queue`, [scan + 1]);
        return { key, rows: rows.map((r) => ({ queue: r.queue, n: Number(r.n) })), limit: scan };
      }),
    ),
  ]);
  const readyRows = ready as ReadyRow[];
  const stateScans = scans as StateScan[];
  const anyCapped = readyRows.some((r) => r.n > cap) || stateScans.some((s) => !scanFinished(s));
  const est = anyCapped ? await estimator() : null;
  const STATE: Record<Exclude<CountKey, 'dead'>, number> = { scheduled: 0, ready: 1, running: 2 };
  const estimateOf = (key: CountKey, queue: string) =>
    est === null ? null : key === 'dead' ? est.dead(queue) : est.jobs(STATE[key], queue);
  return applyScans(withWorkerQueues(readyStats(readyRows, cap, estimateOf), live as WorkerInfo[]), stateScans, estimateOf);
}

interface ReadyRow {
  queue: string;
  n: number;
  oldest: number | null;
  blockedBy: HeadBlock | null;
}

type Head = { queue: string; id: string; task: string; payload: string | null };

/** Each queue's next claim (potatoq's claim order, on `jobs_ready`), payload only when small. */
async function readyHeads(sql: Sql, n: PgNames, queues: string[]): Promise<Map<string, Head>> {
  if (!queues.length) return new Map();
  const rows = await sql<Head>(
    `SELECT q.queue, h.id, h.task, CASE WHEN octet_length(h.payload) <= ${HEAD_CHECK_LIMIT} THEN h.payload END AS payload
     FROM unnest($1::text[]) AS q(queue)
     CROSS JOIN LATERAL (SELECT j.id, j.task, j.payload FROM ${n.jobs} j WHERE j.state = 1 AND j.queue = q.queue
                         ORDER BY j.priority DESC, j.seq LIMIT 1) h`,
    [queues],
  );
  return new Map(rows.map((r) => [r.queue, r]));
}

/** The queues with ready work (a loose scan of `jobs_ready`) and each one's oldest ready
 *  task: the lowest seq among the first entries of its priorities. */
async function readyQueues(sql: Sql, n: PgNames): Promise<Array<{ queue: string; oldest: number | null }>> {
  const J = n.jobs;
  return sql<{ queue: string; oldest: number | null }>(
    `WITH RECURSIVE qs AS (
       (SELECT queue FROM ${J} WHERE state = 1 ORDER BY queue LIMIT 1)
       UNION ALL
       SELECT (SELECT j.queue FROM ${J} j WHERE j.state = 1 AND j.queue > qs.queue ORDER BY j.queue LIMIT 1) FROM qs WHERE qs.queue IS NOT NULL)
     SELECT qs.queue,
       (SELECT extract(epoch FROM o.created_at)::float8 FROM ${J} o WHERE o.seq = (
          WITH RECURSIVE p AS (
            (SELECT j.priority, j.seq FROM ${J} j WHERE j.state = 1 AND j.queue = qs.queue ORDER BY j.priority DESC, j.seq LIMIT 1)
            UNION ALL
            SELECT x.priority, x.seq FROM p CROSS JOIN LATERAL (SELECT j.priority, j.seq FROM ${J} j
              WHERE j.state = 1 AND j.queue = qs.queue AND j.priority < p.priority ORDER BY j.priority DESC, j.seq LIMIT 1) x)
          SELECT min(p.seq) FROM p)) AS oldest
     FROM qs WHERE qs.queue IS NOT NULL`,
  );
}

/** Ready rows per queue, counted on the `jobs_ready` index and never past `cap + 1`. */
async function readyCounts(sql: Sql, n: PgNames, cap: number, queues: string[]): Promise<Array<{ queue: string; n: number }>> {
  const rows = await sql<{ queue: string; n: string }>(
    `SELECT q.queue, (SELECT count(*) FROM (SELECT 1 FROM ${n.jobs} j WHERE j.state = 1 AND j.queue = q.queue ORDER BY j.priority DESC, j.seq LIMIT $2) s) AS n
     FROM unnest($1::text[]) AS q(queue)`,
    [queues, cap + 1],
  );
  return rows.map((r) => ({ queue: r.queue, n: Number(r.n) }));
}

/** The ready counts as queues; past `cap` a count is `cap` with the planner's estimate. */
function readyStats(ready: ReadyRow[], cap: number, estimateOf: (key: CountKey, queue: string) => number | null): QueueStats[] {
  return ready.map((r) => {
    const s = emptyQueue(r.queue);
    s.oldestWaitingAt = isoFromEpoch(r.oldest);
    s.blockedBy = r.blockedBy;
    s.counts.ready = Math.min(r.n, cap);
    if (r.n > cap) {
      const e = estimateOf('ready', r.queue);
      s.capped = { ready: { atLeast: cap, estimate: e === null ? null : Math.max(e, cap + 1), why: readyCapWhy(cap) } };
    }
    return s;
  });
}

export { totalsOf, withWorkerQueues } from '../counts';
