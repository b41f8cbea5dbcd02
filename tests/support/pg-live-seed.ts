// A PostgreSQL database shaped like a live potatoq one, for the benchmark and the plan tests:
// rows are inserted, then change state by UPDATE the way potatoq's workers change them, and
// nothing is vacuumed. The rows workers claimed are the oldest ones (claim order), so their new
// versions sit at the heap's end (no free-space map without VACUUM); retried rows move there
// too; dead letters were DELETEd from the jobs table (dead tuples and index entries remain).
// Autovacuum is switched off on the seeded tables so the shape holds while it is measured.
import pg from 'pg';

export interface LiveSizes {
  queues: number;
  /** Ready + scheduled (every 21st waiting row is scheduled, spread over the queues). */
  waiting: number;
  running: number;
  /** Waiting rows that were retried (UPDATE deliveries, payload, run_at) after the inserts. */
  retried: number;
  dead: number;
}

export const LIVE_SIZES: LiveSizes = { queues: 20, waiting: 1_000_000, running: 50_000, retried: 20_000, dead: 100_000 };

export interface LiveTables {
  jobs: string;
  dead: string;
  results: string;
  workers: string;
}

/** When ANALYZE runs: never, before the state changes (stale: no running rows), or at the end. */
export type StatsState = 'none' | 'stale' | 'fresh';

// Two digits up to 100 queues (bench-q00…), more past that (bench-q0000… for 5,000).
const QUEUE = (q: number) => `'bench-q' || lpad((i % ${q})::text, ${Math.max(2, String(q - 1).length)}, '0')`;
const TASK = `'bench.task' || (i % 7)`;
// potatoq's compact message for `bench.taskN.delay(i, "order-i", note=...)`, key order as potatoq's.
const payload = (id: string, queue: string, retries = '') =>
  `'{"task":"' || ${TASK} || '","args":[' || i || ',"order-' || i || '"],"kwargs":{"note":"benchmark row ' || md5(i::text) || '"},"id":"' || ${id} || '","queue":"' || ${queue} || '","root_id":"' || ${id} || '"${retries},"enqueued_at":' || (1796000000 + i) || '.25,"v":1}'`;
const REASONS = `(ARRAY[
  E'Traceback (most recent call last):\\n  File "/app/tasks.py", line 12, in charge\\n    raise ValueError(f"card declined {order}")\\nValueError: card declined',
  E'Traceback (most recent call last):\\n  File "/app/tasks.py", line 40, in sync\\n    raise TimeoutError("upstream timed out")\\nTimeoutError: upstream timed out',
  'worker lost too many times',
  'unregistered task bench.old',
  E'TimeLimitExceeded: Task bench.task3 exceeded its time limit (30s) and was killed'])[1 + i % 5]`;

/** The statements, in order. Ids: `w-N` claimed (running), `r-N` waiting, `d-N` dead. */
export function liveStatements(t: LiveTables, s: LiveSizes, stats: StatsState): string[] {
  const cols = '(id, queue, task, state, priority, run_at, created_at, deliveries, payload)';
  const Q = QUEUE(s.queues);
  const ins = (prefix: string, n: number, state: string, runAt: string) =>
    `INSERT INTO ${t.jobs} ${cols} SELECT '${prefix}-' || i, ${Q}, ${TASK}, ${state}, (i % 4)::smallint, ${runAt},
       now() - make_interval(secs => (${n} - i) * 0.01), 0, ${payload(`'${prefix}-' || i`, Q)} FROM generate_series(1, ${n}) i`;
  const out = [
    ...[t.jobs, t.dead, t.results, t.workers].map((x) => `ALTER TABLE ${x} SET (autovacuum_enabled = false)`),
    // Oldest first: the rows the workers will claim, then the waiting ones, then those that will die.
    ins('w', s.running, '1', 'now()'),
    ins(
      'r',
      s.waiting,
      'CASE WHEN i % 21 = 0 THEN 0 ELSE 1 END',
      'CASE WHEN i % 21 = 0 THEN now() + make_interval(secs => 60 + i) ELSE now() END',
    ),
    ins('x', s.dead, '1', 'now()'),
  ];
  if (stats === 'stale') out.push(`ANALYZE ${t.jobs}`);
  out.push(
    // potatoq's claim: state 2, claimed_at, worker, pid, token, deliveries + 1.
    `UPDATE ${t.jobs} SET state = 2, claimed_at = now() - make_interval(secs => (seq % 100000) * 0.001),
       worker = 'potatoq@bench:' || (1000 + seq % 50) || ':ab12cd', pid = 2000 + (seq % 400)::int,
       token = (random() * 4e18)::bigint, deliveries = 1 WHERE id LIKE 'w-%' AND state = 1`,
    // potatoq's retry: the re-encoded message replaces the payload, deliveries reset, run_at now.
    `UPDATE ${t.jobs} j SET payload = replace(j.payload, '","enqueued_at"', '","retries":1,"enqueued_at"'), run_at = now(), deliveries = 0
       FROM (SELECT seq FROM ${t.jobs} WHERE id LIKE 'r-%' AND state = 1 ORDER BY seq LIMIT ${s.retried * 3}) pick
       WHERE j.seq = pick.seq AND j.seq % 3 = 0`,
    // potatoq's dead: DELETE from jobs, INSERT into dead (with the FAILURE result).
    `WITH gone AS (DELETE FROM ${t.jobs} WHERE id LIKE 'x-%' RETURNING id, queue, task, payload, substr(id, 3)::int AS i),
     d AS (INSERT INTO ${t.dead} (id, queue, task, reason, died_at, payload)
       SELECT 'd-' || i, queue, task, ${REASONS}, now() - make_interval(secs => i * 0.5), replace(payload, '"x-', '"d-') FROM gone RETURNING id, task)
     INSERT INTO ${t.results} (id, state, payload, expires_at)
       SELECT id, 'FAILURE', '{"task_id":"' || id || '","status":"FAILURE","result":{"exc_type":"ValueError","exc_module":"builtins","exc_message":["card declined"]},"traceback":"ValueError: card declined","meta":null,"date_done":1796000000.5,"name":"' || task || '","args":null,"kwargs":null,"retries":0,"worker":"potatoq@bench","date_started":null,"enqueued_at":null}', now() + interval '1 day' FROM d`,
    `INSERT INTO ${t.workers} (id, heartbeat, info) SELECT 'potatoq@bench:' || (1000 + i) || ':ab12cd', now(), '{"hostname":"potatoq@bench","pid":' || (1000 + i) || ',"queues":["bench-q00","bench-q01"],"concurrency":8,"threads":1,"running":[],"registered":null}' FROM generate_series(0, 49) i`,
  );
  if (stats === 'fresh') out.push(...[t.jobs, t.dead, t.results].map((x) => `ANALYZE ${x}`));
  return out;
}

/** Runs the statements in order on one session (asynchronous commit: only the seeded data). */
export async function seedLive(url: string, t: LiveTables, s: LiveSizes, stats: StatsState, log?: (s: string) => void): Promise<void> {
  const c = new pg.Client({ connectionString: url, statement_timeout: 0 });
  await c.connect();
  try {
    await c.query('SET synchronous_commit = off');
    for (const text of liveStatements(t, s, stats)) {
      const t0 = Date.now();
      await c.query(text);
      log?.(`  ${text.trim().split(/\s+/).slice(0, 3).join(' ')} … ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    await c.end();
  }
}
