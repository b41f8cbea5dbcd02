// `npm run bench:sdj [-- --jobs N] [-- --db postgres|mysql]`: the console's Simple Durable Jobs
// reads (the store layer under the adapter: overview, keyset job and dead-letter pages, job
// detail, stale locks) on a database seeded the live way (bench/sdj-seed.ts: 1M jobs, 100k dead
// letters by default), side by side with the reads of the library's own dashboard on the same
// data in the same run, on PostgreSQL 15 and MySQL 9. The library's UI is a Go component that
// cannot be built here, so its queries (docs/systems/simple-durable-jobs.md, "Reads the
// library's dashboard makes") run through the same driver; the ratio is what the console's
// queries and mapping cost against them. Also prints, per read, the rows the database read and
// the indexes it used. A script, not a test; the databases it creates are dropped at the end.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { encodeCursor } from '@/lib/brokers/sdj/cursor';
import { idParam, idText } from '@/lib/brokers/sdj/db';
import { getJob } from '@/lib/brokers/sdj/detail';
import { keysetSql, listDeadLetters, listJobs, statusPage } from '@/lib/brokers/sdj/jobs';
import type { SdjStatus } from '@/lib/brokers/sdj/model';
import { readOverview } from '@/lib/brokers/sdj/overview';
import { openSdjStore, type SdjStore } from '@/lib/brokers/sdj/store';
import { listStaleLocks } from '@/lib/brokers/sdj/stuck';
import { createTestDb, serverAvailable, type Dialect } from '@/tests/sdj/databases';
import { createSdjSchema } from '@/tests/brokers/sdj/schema-fixture';
import { guarded } from '@/tests/brokers/sdj/support';
import { planOf, type Stmt } from './sdj-plan';
import { planSeed, queueName, seedSdj } from './sdj-seed';
import { fmt, load, pct, timeAll } from './potatoq-side';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const JOBS = Number(flag('--jobs') ?? process.env.BENCH_SDJ_JOBS ?? 1_000_000);
const DBS = (flag('--db') ?? 'postgres,mysql').split(',') as Dialect[];
const ITER = Number(process.env.BENCH_ITERATIONS ?? 30);
const PAGE = 50;
const DEEP = 2000;
const QUEUE = queueName(7);
/** A queue with no rows: a filter on it walks the whole list (no index holds queue and the list's key). */
const EMPTY_QUEUE = 'bench-quiet';
const log = (s: string) => console.log(s);

interface Side {
  run: () => Promise<unknown>;
  stmts: Stmt[];
  /** Ids of the page, to check both sides list the same rows. */
  ids?: () => Promise<string[]>;
}
interface Case {
  label: string;
  console: Side;
  library: Side;
  libraryIs: string;
}

const json = (fn: () => Promise<unknown>) => async () => JSON.stringify(await fn());

async function cases(store: SdjStore): Promise<Case[]> {
  const db = store.db;
  const pgsql = db.dialect === 'postgres';
  const all = (stmts: Stmt[]) => async () => {
    let last: unknown[] = [];
    for (const s of stmts) last = await db.all(s.sql, s.params ?? []);
    return last;
  };
  /** The library's statements; `page` (one of them) lists the rows both sides must agree on. */
  const lib = (stmts: Stmt[], page?: Stmt): Side => ({
    run: all(stmts),
    stmts,
    ids: page ? async () => (await db.all(page.sql, page.params ?? [])).map((r) => idText(r.id) ?? '') : undefined,
  });
  const counts = new Map(
    (await db.all('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status')).map((r) => [String(r.status), Number(r.n)]),
  );
  const [deadN] = await db.all('SELECT COUNT(*) AS n FROM jobs WHERE dead_lettered_at IS NOT NULL');
  const deepOf = (n: number) => Math.max(2, Math.min(DEEP, Math.floor(n / PAGE)));
  const out: Case[] = [];

  // The overview: the console runs the dashboard's own two GROUP BYs (plus the clock) under a deadline.
  const oldest = pgsql
    ? `SELECT queue, MIN(created_at) AS oldest, EXTRACT(EPOCH FROM (NOW() - MIN(created_at))) AS age FROM jobs WHERE status = 'pending' GROUP BY queue`
    : `SELECT queue, MIN(created_at) AS oldest, TIMESTAMPDIFF(MICROSECOND, MIN(created_at), NOW(6)) / 1000000 AS age FROM jobs WHERE status = 'pending' GROUP BY queue`;
  out.push({
    label: 'overview (counts per queue and status, oldest pending)',
    console: {
      run: json(() => readOverview(db)),
      stmts: [{ sql: 'SELECT queue, status, COUNT(*) AS n FROM jobs GROUP BY queue, status' }, { sql: oldest }],
    },
    library: lib([
      { sql: 'SELECT queue, status, count(*) as count FROM jobs GROUP BY queue, status' },
      { sql: `SELECT queue, MIN(created_at) AS oldest_pending_at FROM jobs WHERE status = ? GROUP BY queue`, params: ['pending'] },
      { sql: 'SELECT queue FROM queue_states WHERE paused = true' },
    ]),
    libraryIs: 'GetQueueDepthStats',
  });

  // Job pages per status: keyset for the console, SearchJobs (a COUNT, then OFFSET) for the library.
  const statusCase = async (status: SdjStatus, page: number, queue?: string) => {
    const offset = (page - 1) * PAGE;
    let cursor: string | null = null;
    if (page > 1) {
      const [r] = await db.all(
        `SELECT id, created_at FROM jobs WHERE status = ?${queue ? ' AND queue = ?' : ''} ORDER BY created_at DESC, id ASC LIMIT 1 OFFSET ${offset - 1}`,
        queue ? [status, queue] : [status],
      );
      cursor = encodeCursor({ at: String(r!.created_at), id: idText(r!.id)! });
    }
    const where = `status = ?${queue ? ' AND queue = ?' : ''}`;
    const params = queue ? [status, queue] : [status];
    const k = keysetSql(db, statusPage(status, { queue, limit: PAGE, cursor }));
    const rows = { sql: `SELECT * FROM jobs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${PAGE} OFFSET ${offset}`, params };
    out.push({
      label: `${status}${queue ? `, one queue` : ''}, page ${page.toLocaleString()}`,
      console: {
        run: json(() => listJobs(db, { status, queue, limit: PAGE, cursor })),
        stmts: [{ sql: k.sql, params: k.params }],
        ids: async () => (await listJobs(db, { status, queue, limit: PAGE, cursor })).items.map((j) => j.id),
      },
      library: lib([{ sql: `SELECT count(*) FROM jobs WHERE ${where}`, params }, rows], rows),
      libraryIs: 'SearchJobs',
    });
  };
  await statusCase('pending', 1);
  await statusCase('pending', deepOf(counts.get('pending') ?? 0));
  await statusCase('completed', 1);
  await statusCase('completed', deepOf(counts.get('completed') ?? 0));
  await statusCase('running', 1);
  await statusCase('pending', 1, QUEUE);
  await statusCase('completed', 1, QUEUE);

  // Dead letters: keyset for the console, ListDeadLettered (OFFSET) for the library.
  const deadCase = async (page: number, queue?: string) => {
    const offset = (page - 1) * PAGE;
    let cursor: string | null = null;
    const qWhere = queue ? ' AND queue = ?' : '';
    const qParams = queue ? [queue] : [];
    if (page > 1) {
      const [r] = await db.all(
        `SELECT id, dead_lettered_at FROM jobs WHERE dead_lettered_at IS NOT NULL${qWhere} ORDER BY dead_lettered_at DESC, id DESC LIMIT 1 OFFSET ${offset - 1}`,
        qParams,
      );
      cursor = encodeCursor({ at: String(r!.dead_lettered_at), id: idText(r!.id)! });
    }
    const k = keysetSql(db, {
      where: queue ? 'queue = ?' : '1 = 1',
      params: qParams,
      key: 'dead_lettered_at',
      tie: 'DESC',
      limit: PAGE,
      cursor,
    });
    const rows = {
      sql: `SELECT * FROM jobs WHERE dead_lettered_at IS NOT NULL${qWhere} ORDER BY dead_lettered_at DESC, id DESC LIMIT ${PAGE} OFFSET ${offset}`,
      params: qParams,
    };
    out.push({
      label: `dead letters${queue === EMPTY_QUEUE ? ', a queue with none' : queue ? ', one queue' : ''}, page ${page.toLocaleString()}`,
      console: {
        run: json(() => listDeadLetters(db, { queue, limit: PAGE, cursor })),
        stmts: [{ sql: k.sql, params: k.params }],
        ids: async () => (await listDeadLetters(db, { queue, limit: PAGE, cursor })).items.map((j) => j.id),
      },
      library: lib([rows], rows),
      libraryIs: 'ListDeadLettered',
    });
  };
  await deadCase(1);
  await deadCase(deepOf(Number(deadN?.n ?? 0)));
  await deadCase(1, QUEUE);
  await deadCase(1, EMPTY_QUEUE);

  // One job in full, and the stale locks (the library's UI has neither view: its nearest reads).
  const [letter] = await db.all(`SELECT id FROM jobs WHERE dead_lettered_at IS NOT NULL ORDER BY dead_lettered_at DESC, id DESC LIMIT 1`);
  const id = idText(letter!.id)!;
  const idp = idParam(db.dialect, id);
  out.push({
    label: 'job detail (a dead letter)',
    console: {
      run: json(() => getJob(db, id)),
      stmts: [
        { sql: 'SELECT * FROM jobs WHERE id = ?', params: [idp] },
        { sql: 'SELECT id FROM checkpoints WHERE job_id = ? ORDER BY call_index, call_type', params: [idp] },
        { sql: 'SELECT id FROM fan_outs WHERE parent_job_id = ? ORDER BY created_at, id', params: [idp] },
        { sql: 'SELECT id FROM jobs WHERE parent_job_id = ? ORDER BY fan_out_index, id LIMIT 1001', params: [idp] },
      ],
    },
    library: lib([
      { sql: 'SELECT * FROM jobs WHERE id = ?', params: [idp] },
      { sql: 'SELECT * FROM checkpoints WHERE job_id = ? ORDER BY call_index', params: [idp] },
    ]),
    libraryIs: 'the row and its checkpoints by key',
  });
  const life = 'COALESCE(last_heartbeat_at, started_at, locked_until)';
  const cutoff = pgsql ? `NOW() - make_interval(mins => 45)` : `NOW(3) - INTERVAL 45 MINUTE`;
  out.push({
    label: 'stale locks (running, no sign of life for 45 min)',
    console: {
      run: json(() => listStaleLocks(db)),
      stmts: [{ sql: `SELECT id FROM jobs WHERE status = 'running' AND ${life} < ${cutoff} ORDER BY ${life} LIMIT 100` }],
    },
    library: lib([{ sql: `SELECT id FROM jobs WHERE status = 'running' AND ${life} < ${cutoff} ORDER BY ${life} LIMIT 100` }]),
    libraryIs: "the reaper's select",
  });
  return out;
}

const cell = (s: string | number, w: number) => String(s).padStart(w);

async function benchOne(dialect: Dialect): Promise<void> {
  const name = `sdjbench_${randomBytes(4).toString('hex')}`;
  // guarded: the drop's WITH (FORCE) ends the pool's sockets, which must not throw here.
  const db = guarded(await createTestDb(dialect, name));
  let store: SdjStore | null = null;
  try {
    const plan = planSeed(JOBS);
    log(`\n=== ${dialect === 'postgres' ? 'PostgreSQL' : 'MySQL'} (database ${name}) ===`);
    const [v] = await db.query('SELECT version() AS v');
    log(`  ${String(v?.v).split(' on ')[0]}`);
    await createSdjSchema(db, 'verified');
    log(
      `  seeding ${JOBS.toLocaleString()} jobs, ${plan.dead.toLocaleString()} of them dead letters, in ${dialect === 'postgres' ? 'chunks of 100,000' : 'chunks of 50,000'} (load ${load()}):`,
    );
    const t0 = Date.now();
    await seedSdj(dialect, db.url, plan, log);
    log(`  seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    store = await openSdjStore(db.url, {});
    const s = store.db;
    const shape =
      dialect === 'postgres'
        ? await s.all(
            `SELECT pg_relation_size('jobs') / 8192 AS heap_pages, pg_indexes_size('jobs') / 1048576 AS index_mb, n_live_tup, n_dead_tup FROM pg_stat_user_tables WHERE relname = 'jobs'`,
          )
        : await s.all(
            `SELECT data_length DIV 1048576 AS data_mb, index_length DIV 1048576 AS index_mb, table_rows FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'jobs'`,
          );
    log(`  jobs table: ${JSON.stringify(shape[0])}`);
    const bystatus = await s.all('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status ORDER BY status');
    log(`  by status: ${bystatus.map((r) => `${String(r.status)} ${Number(r.n).toLocaleString()}`).join(', ')}`);
    const cs = await cases(store);
    for (const c of cs) {
      if (!c.console.ids || !c.library.ids) continue;
      const [a, b] = [await c.console.ids(), await c.library.ids()];
      const same = a.length === b.length && [...a].sort().join() === [...b].sort().join();
      if (!same) log(`  !!! ${c.label}: the console's page and the library's differ (${a.length} vs ${b.length} rows)`);
    }
    log(`\n  ${ITER} rounds over all reads after 3 warm-ups each, in a new order each round (ms, load ${load()}):`);
    const samples = await timeAll(
      cs.flatMap((c) => [c.console.run, c.library.run]),
      ITER,
    );
    log(`  (load average now ${load()})`);
    const rowsHead = dialect === 'postgres' ? 'rows read / pages' : 'handler rows read';
    log(
      `\n  ${'read'.padEnd(52)} ${cell('console p50', 11)} ${cell('library p50', 11)} ${cell('ratio', 7)}   ${rowsHead}: console | library`,
    );
    for (const [k, c] of cs.entries()) {
      const [con, libr] = [samples[2 * k]!, samples[2 * k + 1]!];
      const [pc, pl] = [await planOf(s, c.console.stmts), await planOf(s, c.library.stmts)];
      const show = (p: typeof pc) =>
        `${p.rows.toLocaleString()}${p.pages === null ? '' : ` / ${p.pages.toLocaleString()}`} (${p.access.join(', ')})`;
      log(
        `  ${c.label.padEnd(52)} ${cell(pct(con, 50).toFixed(1), 11)} ${cell(pct(libr, 50).toFixed(1), 11)} ${cell((pct(con, 50) / pct(libr, 50)).toPrecision(2), 7)}   ${show(pc)} | ${show(pl)}`,
      );
      log(`      console ${fmt(con)};  library (${c.libraryIs}) ${fmt(libr)}`);
    }
  } finally {
    await store?.close().catch(() => undefined);
    await db.drop().then(
      () => log(`\n  dropped database ${name}`),
      (e: unknown) => log(`\n  could not drop ${name} (${(e as Error).message}): drop it by hand`),
    );
  }
}

async function main(): Promise<void> {
  log(`Simple Durable Jobs benchmark: ${JOBS.toLocaleString()} jobs per database, ${os.cpus().length} cores, load ${load()}`);
  for (const d of DBS) {
    if (!(await serverAvailable(d))) continue;
    await benchOne(d);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
