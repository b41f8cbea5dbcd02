// Seeds potatoq's exact PostgreSQL layout for the benchmark: the tables come from the real
// `potatoq migrate` in a fresh schema, the rows from generate_series in a few parallel
// statements (one per kind of row), then VACUUM (FREEZE, ANALYZE) as autovacuum would eventually do.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';

export interface BenchTarget {
  url: string;
  schema: string;
  prefix: string;
  env: NodeJS.ProcessEnv;
  table: (name: string) => string;
}

export const SIZES = { queues: 20, ready: 950_000, scheduled: 50_000, running: 50_000, dead: 100_000 };

export function migrate(root: string, url: string, schema: string, prefix = 'potatoq_'): BenchTarget {
  const env = {
    ...process.env,
    PQ_PG_URL: url,
    PQ_PG_OPTIONS: JSON.stringify({ schema, table_prefix: prefix }),
    POTATOQ_NO_EMOJI: '1',
    NO_COLOR: '1',
  };
  execFileSync(path.join(root, '.venv/bin/potatoq'), ['-A', 'rt_pg_tasks', '--no-color', '--no-emoji', 'migrate'], {
    cwd: path.join(root, 'tests/py'),
    env,
    stdio: 'pipe',
  });
  return { url, schema, prefix, env, table: (name) => `"${schema}"."${prefix}${name}"` };
}

// The message potatoq writes for `bench.taskN.delay(i, "order-i", note=...)`, key order as potatoq's.
const payload = (id: string, queue: string, task: string) =>
  `'{"task":"' || ${task} || '","args":[' || i || ',"order-' || i || '"],"kwargs":{"note":"benchmark row ' || md5(i::text) || '"},"id":"' || ${id} || '","queue":"' || ${queue} || '","root_id":"' || ${id} || '","enqueued_at":' || (1796000000 + i) || '.25,"v":1}'`;

const QUEUE = `'bench-q' || lpad((i % ${SIZES.queues})::text, 2, '0')`;
const TASK = `'bench.task' || (i % 7)`;
const REASONS = `(ARRAY[
  E'Traceback (most recent call last):\\n  File "/app/tasks.py", line 12, in charge\\n    raise ValueError(f"card declined {order}")\\nValueError: card declined',
  E'Traceback (most recent call last):\\n  File "/app/tasks.py", line 40, in sync\\n    raise TimeoutError("upstream timed out")\\nTimeoutError: upstream timed out',
  'worker lost too many times',
  'unregistered task bench.old',
  E'TimeLimitExceeded: Task bench.task3 exceeded its time limit (30s) and was killed'])[1 + i % 5]`;

function statements(t: BenchTarget): string[] {
  const J = t.table('jobs');
  const cols = '(id, queue, task, state, priority, run_at, created_at, claimed_at, worker, pid, token, deliveries, payload)';
  return [
    `INSERT INTO ${J} ${cols} SELECT 'r-' || i, ${QUEUE}, ${TASK}, 1, (i % 4)::smallint, now(), now() - make_interval(secs => (${SIZES.ready} - i) * 0.01), NULL, NULL, NULL, NULL, 0, ${payload("'r-' || i", QUEUE, TASK)} FROM generate_series(1, ${SIZES.ready}) i`,
    `INSERT INTO ${J} ${cols} SELECT 's-' || i, ${QUEUE}, ${TASK}, 0, 0, now() + make_interval(secs => 60 + i), now(), NULL, NULL, NULL, NULL, 0, ${payload("'s-' || i", QUEUE, TASK)} FROM generate_series(1, ${SIZES.scheduled}) i`,
    `INSERT INTO ${J} ${cols} SELECT 'w-' || i, ${QUEUE}, ${TASK}, 2, 0, now(), now(), now() - make_interval(secs => i * 0.001), 'potatoq@bench:' || (1000 + i % 50) || ':ab12cd', 2000 + i % 400, (random() * 4e18)::bigint, 1, ${payload("'w-' || i", QUEUE, TASK)} FROM generate_series(1, ${SIZES.running}) i`,
    `WITH d AS (INSERT INTO ${t.table('dead')} (id, queue, task, reason, died_at, payload)
       SELECT 'd-' || i, ${QUEUE}, ${TASK}, ${REASONS}, now() - make_interval(secs => i * 0.5), ${payload("'d-' || i", QUEUE, TASK)} FROM generate_series(1, ${SIZES.dead}) i RETURNING id, task)
     INSERT INTO ${t.table('results')} (id, state, payload, expires_at)
       SELECT id, 'FAILURE', '{"task_id":"' || id || '","status":"FAILURE","result":{"exc_type":"ValueError","exc_module":"builtins","exc_message":["card declined"]},"traceback":"ValueError: card declined","meta":null,"date_done":1796000000.5,"name":"' || task || '","args":null,"kwargs":null,"retries":0,"worker":"potatoq@bench","date_started":null,"enqueued_at":null}', now() + interval '1 day' FROM d`,
    `INSERT INTO ${t.table('workers')} (id, heartbeat, info) SELECT 'potatoq@bench:' || (1000 + i) || ':ab12cd', now(), '{"hostname":"potatoq@bench","pid":' || (1000 + i) || ',"queues":["bench-q00","bench-q01"],"concurrency":8,"threads":1,"running":[],"registered":null}' FROM generate_series(0, 49) i`,
  ];
}

/** Runs the inserts on parallel sessions (asynchronous commit: only the benchmark's data). */
export async function seed(t: BenchTarget, log: (s: string) => void): Promise<number> {
  const started = Date.now();
  await Promise.all(
    statements(t).map(async (text) => {
      const c = new pg.Client({ connectionString: t.url, statement_timeout: 0 });
      await c.connect();
      try {
        await c.query('SET synchronous_commit = off');
        await c.query(text);
      } finally {
        await c.end();
      }
    }),
  );
  log(`  inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const c = new pg.Client({ connectionString: t.url });
  await c.connect();
  try {
    // FREEZE marks every page all-visible even if another session's snapshot was open
    // during the first pass: the steady state potatoq's aggressive autovacuum settings aim for.
    for (const name of ['jobs', 'dead', 'results', 'workers']) await c.query(`VACUUM (FREEZE, ANALYZE) ${t.table(name)}`);
  } finally {
    await c.end();
  }
  return Date.now() - started;
}
