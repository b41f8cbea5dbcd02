// potatoq's SQLite layout shaped like a live database, for the benchmark and the plan tests:
// rows inserted, then state changes by UPDATE as workers make them (claims, retries), dead
// letters moved out of the jobs table by DELETE, never VACUUMed; statistics (sqlite_stat1)
// absent, stale (ANALYZE before the state changes) or fresh. Sizes as in pg-live-seed.ts.
import Database from 'better-sqlite3';
import type { LiveSizes, StatsState } from './pg-live-seed';

const REASONS = [
  'Traceback (most recent call last):\n  File "/app/tasks.py", line 12, in charge\n    raise ValueError(f"card declined {order}")\nValueError: card declined',
  'Traceback (most recent call last):\n  File "/app/tasks.py", line 40, in sync\n    raise TimeoutError("upstream timed out")\nTimeoutError: upstream timed out',
  'worker lost too many times',
  'unregistered task bench.old',
  'TimeLimitExceeded: Task bench.task3 exceeded its time limit (30s) and was killed',
];

const series = (n: number) => `WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < ${n})`;
const payload = (prefix: string, queue: string) =>
  `'{"task":"bench.task' || (i % 7) || '","args":[' || i || ',"order-' || i || '"],"kwargs":{"note":"benchmark row ' || printf('%08x', (i * 2654435761) % 4294967296) || '"},"id":"${prefix}-' || i || '","queue":"' || ${queue} || '","root_id":"${prefix}-' || i || '","enqueued_at":' || (1796000000 + i) || '.25,"v":1}'`;

export function seedSqliteLive(file: string, s: LiveSizes, stats: StatsState): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    const now = Date.now() / 1000;
    const Q = `'bench-q' || printf('%02d', i % ${s.queues})`;
    const ins = (prefix: string, n: number, state: string, runAt: string) =>
      db.exec(`${series(n)} INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, deliveries, created_at, payload)
        SELECT '${prefix}-' || i, ${Q}, 'bench.task' || (i % 7), ${state}, i % 4, ${runAt}, 0, ${now} - (${n} - i) * 0.01, ${payload(prefix, Q)} FROM g`);
    // Oldest first: the rows workers will claim, then the waiting ones, then those that will die.
    ins('w', s.running, '1', String(now));
    ins('r', s.waiting, 'CASE WHEN i % 21 = 0 THEN 0 ELSE 1 END', `CASE WHEN i % 21 = 0 THEN ${now} + 60 + i ELSE ${now} END`);
    ins('x', s.dead, '1', String(now));
    if (stats === 'stale') db.exec('ANALYZE');
    db.exec(`UPDATE potatoq_jobs SET state = 2, claimed_at = ${now} - (seq % 100000) * 0.001,
      worker = 'potatoq@bench:' || (1000 + seq % 50) || ':ab12cd', pid = 2000 + seq % 400, token = abs(random()), deliveries = 1
      WHERE id LIKE 'w-%' AND state = 1`);
    db.exec(`UPDATE potatoq_jobs SET payload = replace(payload, '","enqueued_at"', '","retries":1,"enqueued_at"'), run_at = ${now}, deliveries = 0
      WHERE seq IN (SELECT seq FROM potatoq_jobs WHERE id LIKE 'r-%' AND state = 1 ORDER BY seq LIMIT ${s.retried * 3}) AND seq % 3 = 0`);
    db.function('reason', (i: number | bigint) => REASONS[Number(i) % REASONS.length]!);
    db.exec(`INSERT INTO potatoq_dead (id, queue, task, reason, died_at, payload)
      SELECT 'd-' || substr(id, 3), queue, task, reason(CAST(substr(id, 3) AS INTEGER)), ${now} - CAST(substr(id, 3) AS INTEGER) * 0.5,
        replace(payload, '"x-', '"d-') FROM potatoq_jobs WHERE id LIKE 'x-%'`);
    db.exec(`DELETE FROM potatoq_jobs WHERE id LIKE 'x-%'`);
    db.exec(`${series(50)} INSERT INTO potatoq_workers (id, heartbeat, info)
      SELECT 'potatoq@bench:' || (1000 + i) || ':ab12cd', ${now}, '{"hostname":"potatoq@bench","pid":' || (1000 + i) || ',"queues":["bench-q00"],"concurrency":8,"threads":1,"running":[],"registered":null}' FROM g`);
    if (stats === 'fresh') db.exec('ANALYZE');
  } finally {
    db.close();
  }
}
