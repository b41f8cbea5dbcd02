// `npm run bench:celery`: the console's Celery-on-Redis reads side by side with Flower 2.x
// (`celery flower`, Celery's own monitor) on the same real Celery 5.7 app, in the same run, while
// real `celery worker -E` processes churn: a backlog of waiting tasks (100,000 by default), failed
// tasks (10,000, half of them failed before Flower started), task events flowing. Prints Flower ÷
// console medians for queue lengths, failures and one task's detail, each server's resident memory
// after a period of events, and checks in the run what Flower cannot show at all. A private
// redis-server (its own port and folder) holds everything and is removed at the end, with every
// process started here. A script, not a test. See docs/performance.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import type { CeleryRedisCtx } from '@/lib/brokers/celery/redis/context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { bucketSizes } from '@/lib/brokers/celery/redis/lists';
import { deadCounts } from '@/lib/brokers/celery/redis/reads-dead';
import { inspect } from '@/lib/brokers/celery/redis/pidbox';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { PrivateRedis } from '@/tests/support/redis';
import { anyGet, dashboardGet, load, ROOT, startConsole, timeAndReport, type Dashboard } from './potatoq-side';
import { count, GOAL, ratioLine, treeRssMb } from './celery-figures';
import { produce, startFlower, startWorker, type Flower, type Proc } from './celery-procs';
import { showWhatFlowerMisses, waitFor, type Seen } from './celery-checks';

const SCALE = Number(process.env.BENCH_CELERY_SCALE ?? 1);
const WAITING = Math.round(Number(process.env.BENCH_CELERY_WAITING ?? 100_000 * SCALE));
const FAILED = Math.round(Number(process.env.BENCH_CELERY_FAILED ?? 10_000 * SCALE));
const CHURN = Math.round(Number(process.env.BENCH_CELERY_CHURN ?? 20_000 * SCALE));
const EVENTS_S = Number(process.env.BENCH_CELERY_EVENTS_SECONDS ?? 120);
// During the events period: churn tasks sent each minute (1 in 10 fails), so events keep flowing
// for all of it, and a memory sample every SAMPLE_S seconds.
const PER_MINUTE = Number(process.env.BENCH_CELERY_EVENTS_PER_MINUTE ?? 1200);
const SAMPLE_S = Number(process.env.BENCH_CELERY_SAMPLE_SECONDS ?? 300);
// A folder: after the events period the console's V8 heap is written there twice, HEAP_GAP_S apart
// (each snapshot after a full collection); compare them with `npm run bench:heap-diff -- <a> <b>`.
const HEAP_DIR = process.env.BENCH_CELERY_HEAP_DIR ?? '';
const HEAP_GAP_S = Number(process.env.BENCH_CELERY_HEAP_GAP_SECONDS ?? 180);
const ITER = Number(process.env.BENCH_ITERATIONS ?? 10);
const LIMIT_MIN = Number(process.env.BENCH_CELERY_TIMEOUT_MINUTES ?? 20);
const ORPHAN = 'bench.nobody'; // a queue with waiting tasks and no worker
const WAIT_QUEUES = Array.from({ length: 10 }, (_, i) => `bench.wait${String(i).padStart(2, '0')}`);
const log = (s: string) => console.log(s);

/** Node, redis-server, Celery and Flower versions, as this run used them. */
function versions(): string {
  const py = `import importlib.metadata as m; print('Celery', m.version('celery'), '· Flower', m.version('flower'), '· tornado', m.version('tornado'))`;
  const pyOut = execFileSync(path.join(ROOT, '.venv/bin/python'), ['-c', py]).toString().trim();
  const redisOut =
    execFileSync('redis-server', ['--version'])
      .toString()
      .match(/v=(\S+)/)?.[1] ?? '?';
  return `Node ${process.version} · redis-server ${redisOut} · ${pyOut}`;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const secs = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
  log(`Celery side by side with Flower: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, load ${load()}`);
  log(`  ${versions()}`);
  log(
    `  sizes: ${count(WAITING)} waiting in ${WAIT_QUEUES.length} queues, ${count(FAILED)} failed (half before Flower starts), ${count(CHURN)} churn tasks (1 in 10 fails), ${EVENTS_S} s of events` +
      (SCALE !== 1 ? ` — SCALED DOWN by BENCH_CELERY_SCALE=${SCALE} from issue 36's 100,000 waiting / 10,000 failed` : ''),
  );
  const redis = new PrivateRedis(['--appendonly', 'no', '--maxmemory-policy', 'noeviction']);
  const procs: Proc[] = [];
  let server: Dashboard | null = null;
  let flower: Flower | null = null;
  let adapter: BrokerAdapter | null = null;
  const cleanup = async () => {
    await adapter?.close().catch(() => undefined);
    await server?.stop();
    for (const p of procs.splice(0).reverse()) await p.stop();
    await redis.stop();
  };
  // Bounded: past the limit everything started here is stopped and the run fails.
  const limit = setTimeout(() => {
    console.error(`bench:celery: over ${LIMIT_MIN} minutes (BENCH_CELERY_TIMEOUT_MINUTES); stopping everything`);
    void cleanup().finally(() => process.exit(2));
  }, LIMIT_MIN * 60_000);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void cleanup().finally(() => process.exit(130)));
  try {
    const c = await redis.start();
    const broker = redis.url; // db 0
    const backend = redis.url.replace(/\/0$/, '/1');
    const env = { ...process.env, CB_BROKER: broker, CB_BACKEND: backend };
    const backendClient = redis.client();
    await backendClient.select(1);
    log(`  private redis-server on port ${redis.port}: broker db 0, result backend db 1`);

    // 1. The backlog and the failures Flower will never hear of (it is not running yet).
    const before = Math.floor(FAILED / 2);
    const [waitIds, preIds] = await produce(env, [
      { task: 'bench.slow', queues: WAIT_QUEUES, n: WAITING, first: 0 },
      { task: 'bench.fail', queues: ['bench.fail'], n: before, first: 0 },
      { task: 'bench.slow', queues: [ORPHAN], n: 1000, first: WAITING },
    ]);
    log(`  ${secs()}: sent ${count(WAITING)} waiting, ${count(before)} failing and 1,000 to ${ORPHAN} (no worker)`);
    procs.push(startWorker(env, 'fail', ['bench.fail'], 2));
    procs.push(startWorker(env, 'backlog', WAIT_QUEUES, 1));
    procs.push(startWorker(env, 'churn', ['bench.churn'], 2));
    await waitFor('failures before Flower', () => backendClient.dbsize(), before, 900, log);
    log(`  ${secs()}: ${count(before)} FAILURE records stored before Flower started`);

    // 2. Flower, then the failures it sees happen, and the churn (events for both).
    flower = await startFlower(env);
    procs.push(flower);
    const [postIds] = await produce(env, [
      { task: 'bench.fail', queues: ['bench.fail'], n: FAILED - before, first: before },
      { task: 'bench.ok', queues: ['bench.churn'], n: CHURN - Math.floor(CHURN / 10), first: 0 },
      { task: 'bench.fail', queues: ['bench.churn'], n: Math.floor(CHURN / 10), first: FAILED },
    ]);
    // Done when the queue is empty and nothing of it is reserved (kombu's unacked hash) any more.
    const reserved = async () => (await c.hvals('unacked')).filter((m) => m.endsWith('"bench.fail"]')).length;
    const left = async () => Number(await c.llen('bench.fail')) + (await reserved());
    await waitFor('failures after Flower', async () => FAILED - Math.min(FAILED, await left()), FAILED, 900, log);
    await new Promise((r) => setTimeout(r, 3000)); // the last records and events
    log(`  ${secs()}: ${count(FAILED - before)} more failures with Flower running; churn under way`);

    const entry = { id: 'bench', kind: 'celery', name: 'bench', url: broker, resultBackend: backend };
    let ctx: CeleryRedisCtx | undefined;
    const a = createCeleryRedisAdapter(
      { id: 'bench', name: 'bench', url: broker, readOnly: false, options: { resultBackend: backend } },
      (x) => (ctx = x),
    );
    adapter = a;
    if (HEAP_DIR) {
      fs.mkdirSync(HEAP_DIR, { recursive: true });
      process.env.BENCH_SERVER_NODE_ARGS = `${process.env.BENCH_SERVER_NODE_ARGS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${HEAP_DIR}`;
    }
    server = await startConsole(entry);
    if (!server)
      log('  no production build (.next/BUILD_ID): the console over HTTP and its memory are not measured; run `npx next build` first');
    const seen: Seen = { waitingId: waitIds!.last, preFlowerFailureId: preIds!.first, postFlowerFailureId: postIds!.last };
    await showWhatFlowerMisses({ a, flower, server, seen, log, failedBefore: before, orphanQueue: ORPHAN }).catch((e: unknown) =>
      log(`  the checks stopped: ${String(e)}`),
    );

    const queueNames = (await a.overview()).queues.map((q) => q.name);
    // 3. The reads, median of ITER rounds (3 warm-ups each, shuffled order each round).
    const f = (route: string) => () => dashboardGet(flower!.url, route);
    const s = (route: string) => () => dashboardGet(server!.url, route);
    const id = seen.postFlowerFailureId;
    const L = {
      fQueues: 'Flower GET /api/queues/length',
      fFailed: 'Flower GET /api/tasks?state=FAILURE&limit=100',
      fFailedAll: 'Flower GET /api/tasks?state=FAILURE (all it holds)',
      fInfo: 'Flower GET /api/task/info/<failed id>',
      aOverview: 'console overview (adapter + JSON)',
      aDead: 'console failures, newest 100 (adapter + JSON)',
      aDetail: 'console failure detail (adapter + JSON)',
      aLlen: '  part: LLEN of every queue bucket (what Flower reads)',
      hOverview: 'console GET /api/brokers/bench/queues',
      hDead: 'console GET /api/brokers/bench/dead?limit=100',
      hDetail: 'console GET /api/brokers/bench/dead/<failed id>',
    };
    const cases: Array<[string, () => Promise<unknown>]> = [
      [L.fQueues, f('/api/queues/length')],
      [L.fFailed, f('/api/tasks?state=FAILURE&limit=100&sort_by=-received')],
      [L.fFailedAll, f('/api/tasks?state=FAILURE')],
      [L.fInfo, f(`/api/task/info/${id}`)],
      ['HTTP floor: Flower GET /api/none (404)', () => anyGet(flower!.url, '/api/none')],
      [L.aOverview, async () => JSON.stringify(await a.overview())],
      [L.aDead, async () => JSON.stringify(await a.listDead(ZDeadListQuery.parse({ limit: 100 })))],
      [L.aDetail, async () => JSON.stringify(await a.getDead(id))],
      // Parts of the overview, to say where its time goes: Flower's whole read, the failures, the ping.
      [L.aLlen, () => bucketSizes(ctx!.client, ctx!.keys, queueNames)],
      ['  part: failure counts from the kept result index (PING + DBSIZE)', () => deadCounts(ctx!)],
      ['  part: broadcast ping, replies awaited 500 ms (workers alive)', () => inspect(ctx!, 'ping', 500)],
      ...(server
        ? ([
            [L.hOverview, s('/api/brokers/bench/queues')],
            [L.hDead, s('/api/brokers/bench/dead?limit=100')],
            [L.hDetail, s(`/api/brokers/bench/dead/${id}`)],
            ['HTTP floor: console GET /api/brokers/none/dead (404)', () => anyGet(server!.url, '/api/brokers/none/dead')],
          ] as Array<[string, () => Promise<unknown>]>)
        : []),
    ];
    const p50 = await timeAndReport(cases, ITER, log);
    const m = (label: string) => p50.get(label);
    log(`\nFlower ÷ console at the median (above 1: the console answers faster; goal ≥ ${GOAL}×):`);
    log(ratioLine('queue lengths: /api/queues/length vs console overview (HTTP)', m(L.fQueues), m(L.hOverview)));
    log(ratioLine('failures: FAILURE limit=100 vs console newest 100 (HTTP)', m(L.fFailed), m(L.hDead)));
    log(ratioLine('failures: FAILURE, all it holds vs console newest 100 (HTTP)', m(L.fFailedAll), m(L.hDead)));
    log(ratioLine('one failed task: /api/task/info vs console dead detail (HTTP)', m(L.fInfo), m(L.hDetail)));
    log(ratioLine('queue lengths vs console overview (adapter, in-process)', m(L.fQueues), m(L.aOverview)));
    log(ratioLine('failures limit=100 vs console newest 100 (adapter)', m(L.fFailed), m(L.aDead)));
    log(ratioLine('one failed task vs console dead detail (adapter)', m(L.fInfo), m(L.aDetail)));
    log(ratioLine('queue lengths vs the LLEN part of the overview (adapter)', m(L.fQueues), m(L.aLlen)));

    // 4. Memory over a period of events, both servers polled as one viewer would (every 5 s), churn
    // sent each minute so that events flow for all of it.
    const rss = (p: { pid: number } | null) => (p ? treeRssMb(p.pid) : null);
    const eventsT0 = Date.now();
    let sent = 0;
    let failedSent = 0;
    const show = async (when: string) => {
      const fl = rss(flower);
      const co = rss(server);
      const procs = (n: number) => `${n} process${n === 1 ? '' : 'es'}`;
      const held = Object.keys((await dashboardGet(flower!.url, '/api/tasks')) as object).length;
      const stored = await backendClient.dbsize();
      log(
        `  ${when} (${((Date.now() - eventsT0) / 1000).toFixed(0)} s, ${count(sent)} tasks sent): Flower ${fl!.mb.toFixed(0)} MiB (${procs(fl!.processes)}, holds ${count(held)} tasks) · console ${co ? `${co.mb.toFixed(0)} MiB (${procs(co.processes)})` : 'not started'} · ${count(stored)} results stored`,
      );
      return { fl, co };
    };
    log(
      `\nresident memory (VmRSS from /proc, each server's process tree), ${EVENTS_S} s of events, ${count(PER_MINUTE)} churn tasks sent a minute, a sample every ${SAMPLE_S} s:`,
    );
    const heap = async (label: string) => {
      if (!HEAP_DIR || !server) return;
      const t = Date.now();
      process.kill(server.pid, 'SIGUSR2');
      // The snapshot is written on the server's main thread: it answers again once it is done (a
      // kept-alive connection it closed meanwhile may fail the first asks).
      for (let i = 0; i < 300; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        if ((await anyGet(server.url, '/api/health/live').catch(() => 0)) === 200) break;
      }
      log(`  heap snapshot "${label}" written to ${HEAP_DIR} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    };
    await show('before');
    let nextSend = Date.now();
    let nextSample = Date.now() + SAMPLE_S * 1000;
    const until = Date.now() + EVENTS_S * 1000;
    while (Date.now() < until) {
      if (Date.now() >= nextSend) {
        nextSend += 60_000;
        const fails = Math.floor(PER_MINUTE / 10);
        const first = 2 * CHURN + FAILED + sent;
        void produce(
          env,
          [
            { task: 'bench.ok', queues: ['bench.churn'], n: PER_MINUTE - fails, first },
            { task: 'bench.fail', queues: ['bench.churn'], n: fails, first: first + PER_MINUTE - fails },
          ],
          1,
        ).catch((e: unknown) => log(`  a churn batch failed: ${String(e)}`));
        sent += PER_MINUTE;
        failedSent += fails;
      }
      await Promise.all([f('/api/queues/length')(), f('/api/tasks?state=FAILURE&limit=100')()]);
      if (server) await Promise.all([s('/api/brokers/bench/queues')(), s('/api/brokers/bench/dead?limit=100')()]);
      if (Date.now() >= nextSample && Date.now() < until) {
        nextSample += SAMPLE_S * 1000;
        await show('sample');
      }
      await new Promise((r) => setTimeout(r, 5000));
    }
    const after = await show('after');
    log(`  ${count(failedSent)} of the tasks sent during the period fail`);
    // Two snapshots after the samples (a snapshot itself raises the process's resident memory):
    // what the heap holds after a full collection, and what it added in HEAP_GAP_S more of events.
    if (HEAP_DIR && server) {
      await heap('end');
      const gapUntil = Date.now() + HEAP_GAP_S * 1000;
      while (Date.now() < gapUntil) {
        await Promise.all([s('/api/brokers/bench/queues')(), s('/api/brokers/bench/dead?limit=100')()]);
        await new Promise((r) => setTimeout(r, 5000));
      }
      await heap(`end + ${HEAP_GAP_S} s`);
    }
    log('  (Flower keeps up to --max_tasks tasks in memory, 100,000 by default; the console keeps no task)');
    if (after.co) log(`  Flower ÷ console memory: ${(after.fl!.mb / after.co.mb).toFixed(2)}×`);
    log(`\nload average now ${load()}; the run took ${secs()}`);
  } finally {
    clearTimeout(limit);
    await cleanup();
    log('stopped Flower, the workers, the console and the private redis-server (its folder removed)');
  }
}

// Exits when done: nothing of the run may keep the process (or its connections) alive.
main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
