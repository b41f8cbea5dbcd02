// `npm run bench:postgres`: the PostgreSQL adapter on a database shaped like a live potatoq one
// (tests/support/pg-live-seed.ts: 1M waiting, 50k running rewritten at the heap's end, 100k
// dead, never vacuumed) while a real potatoq worker churns through a queue, side by side with
// potatoq's own dashboard and CLI on the same data in the same run. A script, not a test: it
// prints numbers and ratios, and drops its schema at the end. See docs/performance.md.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { encodeCursor } from '@/lib/brokers/cursor';
import { LIVE_SIZES, seedLive, type StatsState } from '@/tests/support/pg-live-seed';
import { runSideBySide } from './side-by-side';
import { CHURN_QUEUE, potatoqCli, potatoqEnv } from './potatoq-side';
import { taskQuery } from '@/tests/support/task-query';

const URL = process.env.POTATOQ_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const STATS = (process.env.BENCH_STATS ?? 'fresh') as StatsState;
const CHURN = 100_000;
const log = (s: string) => console.log(s);

async function admin<R>(text: string): Promise<R[]> {
  const c = new pg.Client({ connectionString: URL, statement_timeout: 0 });
  await c.connect();
  try {
    return (await c.query(text)).rows as R[];
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const reuse = process.env.BENCH_SCHEMA;
  const schema = reuse ?? `pqbench_${randomBytes(4).toString('hex')}`;
  const prefix = 'potatoq_';
  const T = (n: string) => `"${schema}"."${prefix}${n}"`;
  const env = potatoqEnv(URL, { schema, table_prefix: prefix });
  log(
    `potatoq console PostgreSQL benchmark (live-shaped): ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}, schema ${schema}`,
  );
  try {
    // BENCH_SCHEMA names a schema to keep: seeded here the first time, reused as it is after.
    const seeded = reuse
      ? (await admin<{ n: number }>(`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = '${reuse.replaceAll("'", "''")}'`))[0]!.n >
        0
      : false;
    if (!seeded) {
      potatoqCli(env, ['migrate']);
      const s = LIVE_SIZES;
      log(
        `seeding: ${s.waiting.toLocaleString()} waiting in ${s.queues} queues (every 21st scheduled), ${s.running.toLocaleString()} claimed by UPDATE, ${s.retried.toLocaleString()} retried by UPDATE, ${s.dead.toLocaleString()} deleted into dead letters; statistics ${STATS}; no VACUUM, autovacuum off on these tables`,
      );
      const t0 = Date.now();
      await seedLive(URL, { jobs: T('jobs'), dead: T('dead'), results: T('results'), workers: T('workers') }, s, STATS, log);
      await admin(
        `INSERT INTO ${T('jobs')} (id, queue, task, state, priority, payload) SELECT 'c-' || i, '${CHURN_QUEUE}', 'bench.churn', 1, 0,
           '{"task":"bench.churn","args":[' || i || '],"kwargs":{},"id":"c-' || i || '","queue":"${CHURN_QUEUE}","root_id":"c-' || i || '","enqueued_at":1796000000.5,"v":1}'
         FROM generate_series(1, ${CHURN}) i`,
      );
      log(`  seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s (+ ${CHURN.toLocaleString()} tasks in ${CHURN_QUEUE} for the worker)`);
    }
    const [version] = await admin<{ v: string }>('SELECT version() AS v');
    log(`  ${version?.v.split(' on ')[0]}`);
    const [shape] = await admin<{ pages: number; tail: number }>(
      `WITH p AS (SELECT pg_relation_size('${T('jobs')}') / 8192 AS pages)
       SELECT p.pages, (SELECT round(100.0 * count(*) FILTER (WHERE (ctid::text::point)[0] >= p.pages * 0.9) / greatest(count(*), 1))
                        FROM ${T('jobs')} WHERE state = 2) AS tail FROM p`,
    );
    if (shape) log(`  heap: ${shape.pages} pages; ${shape.tail}% of the running rows sit in its last 10%`);
    const a = createPostgresAdapter({ id: 'bench', name: 'bench', url: URL, readOnly: false, options: { schema, table_prefix: prefix } });
    const one = async <R>(sql: string) => (await admin<R>(sql))[0]!;
    const readyQ = await one<{ priority: number; seq: string }>(
      `SELECT priority, seq FROM ${T('jobs')} WHERE state = 1 AND queue = 'bench-q07' ORDER BY priority DESC, seq OFFSET 40000 LIMIT 1`,
    );
    const running = await one<{ k: string; seq: string }>(
      `SELECT coalesce(claimed_at, '-infinity')::text AS k, seq FROM ${T('jobs')} WHERE state = 2 ORDER BY 1, seq OFFSET 40000 LIMIT 1`,
    );
    const deadDeep = await one<{ k: string; id: string }>(
      `SELECT died_at::text AS k, id FROM ${T('dead')} ORDER BY died_at DESC, id OFFSET 90000 LIMIT 1`,
    );
    const tasks = (q: Record<string, unknown>) => () => a.listTasks(taskQuery({ state: 'ready', limit: 50, ...q }));
    const dead = (q: Record<string, unknown>) => () => a.listDead(ZDeadListQuery.parse({ limit: 50, ...q }));
    await runSideBySide({
      system: 'PostgreSQL',
      env,
      adapter: a,
      broker: { id: 'bench', url: URL, schema, table_prefix: prefix },
      log,
      heartbeat: async () => void (await admin(`UPDATE ${T('workers')} SET heartbeat = now() WHERE id LIKE 'potatoq@bench:%'`)),
      extra: [
        ['ready, one queue, page 1', tasks({ queue: 'bench-q07' })],
        [
          'ready, one queue, page 801 (offset 40,000)',
          tasks({ queue: 'bench-q07', cursor: encodeCursor('pg-tasks:ready', [readyQ.priority, readyQ.seq]) }),
        ],
        ['ready, all queues, page 1', tasks({})],
        ['scheduled, page 1', tasks({ state: 'scheduled' })],
        ['running, page 1 (50k running; no claimed_at index)', tasks({ state: 'running' })],
        ['running, page 801', tasks({ state: 'running', cursor: encodeCursor('pg-tasks:running', [running.k, running.seq]) })],
        ['dead letters, page 1,801 (offset 90,000)', dead({ cursor: encodeCursor('pg-dead', [deadDeep.k, deadDeep.id]) })],
        ['dead letters, one queue, page 1', dead({ queue: 'bench-q03' })],
        ['dead-letter search "upstream" (newest 10,000)', dead({ q: 'upstream' })],
        ['dead-letter groups (newest 10,000, fingerprinted in Node)', () => a.deadGroups({})],
        ['task detail', () => a.getTask('r-123457')],
        ['dead-letter detail', () => a.getDead('d-4242')],
      ],
      replayIds: reuse ? null : (from, n) => Array.from({ length: n }, (_, i) => `d-${from + i}`),
    });
    await a.close();
  } finally {
    if (!reuse) {
      await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).then(
        () => log(`\ndropped schema ${schema}`),
        (e: unknown) => log(`\ncould not drop the bench schema (${(e as Error).message}): run DROP SCHEMA "${schema}" CASCADE`),
      );
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
