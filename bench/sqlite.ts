// `npm run bench:sqlite`: the SQLite adapter on a potatoq database file shaped like a live one
// (tests/support/sqlite-live-seed.ts: 1M waiting, 50k claimed by UPDATE, 100k dead, never
// vacuumed) while a real potatoq worker churns through a queue, side by side with potatoq's own
// dashboard and CLI on the same file in the same run. A script, not a test; the file is
// removed at the end. Then one hostile letter more per size: bench/hostile-groups.ts.
// See docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { encodeCursor } from '@/lib/brokers/cursor';
import { LIVE_SIZES, type StatsState } from '@/tests/support/pg-live-seed';
import { seedSqliteLive } from '@/tests/support/sqlite-live-seed';
import { runSideBySide } from './side-by-side';
import { CHURN_QUEUE, potatoqCli, potatoqEnv } from './potatoq-side';
import { measureHostileGroups } from './hostile-groups';
import { taskQuery } from '@/tests/support/task-query';

const STATS = (process.env.BENCH_STATS ?? 'none') as StatsState;
const CHURN = 100_000;
const log = (s: string) => console.log(s);

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-bench-sqlite-'));
  const file = path.join(dir, 'broker.sqlite3');
  const url = `sqlite:///${file}`;
  const env = potatoqEnv(url);
  log(
    `potatoq console SQLite benchmark (live-shaped): ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}, ${file}`,
  );
  try {
    potatoqCli(env, ['migrate']);
    const s = LIVE_SIZES;
    log(
      `seeding: ${s.waiting.toLocaleString()} waiting in ${s.queues} queues, ${s.running.toLocaleString()} claimed by UPDATE, ${s.retried.toLocaleString()} retried, ${s.dead.toLocaleString()} moved to dead letters by DELETE; statistics ${STATS} (potatoq never runs ANALYZE); no VACUUM`,
    );
    const t0 = Date.now();
    seedSqliteLive(file, s, STATS);
    const db = new Database(file);
    const now = Date.now() / 1000;
    db.exec(`WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < ${CHURN})
      INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, deliveries, created_at, payload)
      SELECT 'c-' || i, '${CHURN_QUEUE}', 'bench.churn', 1, 0, ${now}, 0, ${now},
        '{"task":"bench.churn","args":[' || i || '],"kwargs":{},"id":"c-' || i || '","queue":"${CHURN_QUEUE}","root_id":"c-' || i || '","enqueued_at":1796000000.5,"v":1}' FROM g`);
    const size = (fs.statSync(file).size / 1e6).toFixed(0);
    log(`  seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s (+ ${CHURN.toLocaleString()} tasks in ${CHURN_QUEUE}); file ${size} MB`);
    const readyQ = db
      .prepare(
        `SELECT priority, seq FROM potatoq_jobs WHERE state = 1 AND queue = 'bench-q07' ORDER BY priority DESC, seq LIMIT 1 OFFSET 40000`,
      )
      .get() as { priority: number; seq: number };
    const deadDeep = db.prepare(`SELECT died_at, id FROM potatoq_dead ORDER BY died_at DESC, id LIMIT 1 OFFSET 90000`).get() as {
      died_at: number;
      id: string;
    };
    db.pragma('busy_timeout = 10000');
    const beat = db.prepare(`UPDATE potatoq_workers SET heartbeat = ? WHERE id LIKE 'potatoq@bench:%'`);
    const a = createSqliteAdapter({ id: 'bench', name: 'bench', url, readOnly: false, options: {} });
    const tasks = (q: Record<string, unknown>) => () => a.listTasks(taskQuery({ state: 'ready', limit: 50, ...q }));
    const dead = (q: Record<string, unknown>) => () => a.listDead(ZDeadListQuery.parse({ limit: 50, ...q }));
    await runSideBySide({
      system: 'SQLite',
      env,
      adapter: a,
      broker: { id: 'bench', url },
      log,
      heartbeat: async () => void beat.run(Date.now() / 1000),
      extra: [
        ['ready, one queue, page 1', tasks({ queue: 'bench-q07' })],
        [
          'ready, one queue, page 801 (offset 40,000)',
          tasks({ queue: 'bench-q07', cursor: encodeCursor('tasks:ready', [readyQ.priority, readyQ.priority, readyQ.seq]) }),
        ],
        ['ready, all queues, page 1', tasks({})],
        ['scheduled, page 1', tasks({ state: 'scheduled' })],
        ['running, page 1 (50k running; no claimed_at index)', tasks({ state: 'running' })],
        [
          'dead letters, page 1,801 (offset 90,000)',
          dead({ cursor: encodeCursor('dead', [deadDeep.died_at, deadDeep.died_at, deadDeep.id]) }),
        ],
        ['dead letters, one queue, page 1', dead({ queue: 'bench-q03' })],
        ['dead-letter search "upstream" (newest 10,000)', dead({ q: 'upstream' })],
        ['dead-letter groups (newest 10,000)', () => a.deadGroups({})],
        ['task detail', () => a.getTask('r-123457')],
        ['dead-letter detail', () => a.getDead('d-4242')],
      ],
      replayIds: (from, n) => Array.from({ length: n }, (_, i) => `d-${from + i}`),
    });
    const addDead = db.prepare(
      `INSERT INTO potatoq_dead (id, queue, task, reason, died_at, payload) VALUES (?, 'bench-q03', 'bench.hostile', ?, ?, '{}')`,
    );
    await measureHostileGroups({
      log,
      insert: async (reason, i) => void addDead.run(`hostile-${i}`, reason, Date.now() / 1000),
      groups: () => a.deadGroups({}),
    });
    await a.close();
    db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    log(`\nremoved ${dir}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
