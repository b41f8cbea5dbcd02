// `npm run bench:queueflow`: the console's QueueFlow adapter next to QueueFlow's own HTTP API on
// the same server and data in the same run, while a real Python worker (the client 0.5.0's
// run_worker) churns through a queue. QueueFlow has no UI of its own: its API is what an operator
// without the console reads. The console reads through that same API, so the ratios say what the
// console adds on top of it (more calls, decoding, the HTTP hop of its own). A script, not a test;
// the server and its database are removed at the end. See docs/performance.md.
import os from 'node:os';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { PyWorker, startQueueflow, type QueueflowServer } from '@/tests/queueflow/support';
import { anyGet, dashboardGet, load, startConsole, timeAndReport } from './potatoq-side';

const ITER = Number(process.env.BENCH_ITERATIONS ?? 30);
const QUEUES = Number(process.env.BENCH_QF_QUEUES ?? 20);
const PENDING = Number(process.env.BENCH_QF_PENDING ?? 100_000);
const DEAD = Number(process.env.BENCH_QF_DEAD ?? 10_000);
const CHURN = Number(process.env.BENCH_QF_CHURN ?? 30_000);
const CHURN_QUEUE = 'bench_churn';
const log = (s: string) => console.log(s);

async function api<T>(s: QueueflowServer, method: string, route: string, body?: unknown): Promise<T> {
  const r = await fetch(`${s.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${s.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${route}: HTTP ${r.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Creates `n` jobs through the batch endpoint (1,000 a call, 4 calls in flight). */
async function createJobs(s: QueueflowServer, n: number, make: (i: number) => Record<string, unknown>): Promise<void> {
  const calls: Array<() => Promise<unknown>> = [];
  for (let from = 0; from < n; from += 1000) {
    const jobs = Array.from({ length: Math.min(1000, n - from) }, (_, k) => make(from + k));
    calls.push(() => api(s, 'POST', '/api/v1/jobs/batch', { jobs }));
  }
  for (let i = 0; i < calls.length; i += 4) await Promise.all(calls.slice(i, i + 4).map((c) => c()));
}

const deadTotal = async (s: QueueflowServer) =>
  (await api<{ total?: number }>(s, 'GET', '/api/v1/dlq?limit=1&include_total=true')).total ?? 0;
const pendingOf = async (s: QueueflowServer, queue: string) =>
  (await api<{ queues: Array<{ queue: string; pending: number }> }>(s, 'GET', '/api/v1/queues')).queues.find((q) => q.queue === queue)
    ?.pending ?? 0;

async function main(): Promise<void> {
  log(`QueueFlow benchmark: ${os.cpus().length} cores, load ${load()}`);
  const s = startQueueflow();
  if (!s) throw new Error('no QueueFlow server here (see the line above)');
  const churn = new PyWorker(s, CHURN_QUEUE);
  const fatal = new PyWorker(s, 'bench_fatal');
  let server: Awaited<ReturnType<typeof startConsole>> = null;
  try {
    log(`  QueueFlow ${s.version} at ${s.url} (its own database)`);
    const t0 = Date.now();
    const pad = 'x'.repeat(180);
    await createJobs(s, PENDING, (i) => ({
      task_name: `bench.task${i % 7}`,
      payload: { n: i, order: `order-${i}`, note: pad },
      config: { queue: `bench_q${String(i % QUEUES).padStart(2, '0')}`, priority: i % 4 },
    }));
    // Dead letters the way QueueFlow makes them: the server's own Rust workers run the builtin
    // `fail` (one retry first, so each job is UPDATEd through `retrying`), and a real Python
    // worker refuses `qf.fatal` for good.
    const viaPython = Math.min(1000, Math.floor(DEAD / 10));
    await createJobs(s, DEAD - viaPython, (i) => ({
      task_name: 'fail',
      payload: { n: i },
      config: { queue: s.inprocQueue, max_retries: 1, retry_delay_secs: 1, retry_backoff: 'fixed' },
    }));
    await createJobs(s, viaPython, (i) => ({ task_name: 'qf.fatal', payload: { n: i }, config: { queue: 'bench_fatal', max_retries: 0 } }));
    fatal.start();
    for (let i = 0; ; i++) {
      const d = await deadTotal(s);
      if (d >= DEAD) break;
      if (i % 20 === 0) log(`  ${d.toLocaleString()} of ${DEAD.toLocaleString()} dead letters so far`);
      if (i > 900) throw new Error(`only ${d} dead letters after 15 minutes`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    await fatal.stop();
    await createJobs(s, CHURN, (i) => ({ task_name: 'qf.ok', payload: { n: i }, config: { queue: CHURN_QUEUE } }));
    log(
      `  seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${PENDING.toLocaleString()} pending in ${QUEUES} queues, ${DEAD.toLocaleString()} dead letters, ${CHURN.toLocaleString()} jobs for the churning worker`,
    );

    const broker = { id: 'bench', kind: 'queueflow', name: 'bench', url: s.url, token: s.token };
    const a = createQueueflowAdapter(
      { id: 'bench', name: 'bench', url: s.url, readOnly: false, options: { token: s.token } },
      adapterContext(),
    );
    server = await startConsole(broker);
    if (!server) log('  no production build (.next/BUILD_ID): the console over HTTP is not measured; run `npx next build` first');
    churn.start();
    const churnStart = await pendingOf(s, CHURN_QUEUE);
    const dead100 = () => a.listDead(ZDeadListQuery.parse({ limit: 100 }));
    const qf = (route: string) => () => api(s, 'GET', route);
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['console overview (adapter + JSON.stringify)', async () => JSON.stringify(await a.overview())],
      ['QueueFlow GET /api/v1/queues', qf('/api/v1/queues')],
      ['console dead letters, newest 100 (adapter + JSON)', async () => JSON.stringify(await dead100())],
      ['QueueFlow GET /api/v1/dlq?limit=100', qf('/api/v1/dlq?limit=100')],
      ['QueueFlow GET /api/v1/stats', qf('/api/v1/stats')],
      ['HTTP floor: QueueFlow GET /api/v1/none (404)', () => anyGet(s.url, '/api/v1/none')],
      ...(server
        ? ([
            ['console GET /api/brokers/bench/queues (HTTP)', () => dashboardGet(server!.url, '/api/brokers/bench/queues')],
            ['console GET /api/brokers/bench/dead?limit=100 (HTTP)', () => dashboardGet(server!.url, '/api/brokers/bench/dead?limit=100')],
            ['HTTP floor: console GET /api/brokers/none/dead (404)', () => anyGet(server!.url, '/api/brokers/none/dead')],
          ] as Array<[string, () => Promise<unknown>]>)
        : []),
    ];
    const ours = (await dead100()).items.map((d) => d.id);
    const theirs = (await api<{ dead_letters: Array<{ id: number }> }>(s, 'GET', '/api/v1/dlq?limit=100')).dead_letters.map((d) =>
      String(d.id),
    );
    log(`  the 100 newest dead letters are the same in both: ${ours.join() === theirs.join() ? 'yes' : 'NO'}`);
    const queues = (await api<{ queues: unknown[] }>(s, 'GET', '/api/v1/queues')).queues.length;
    log(
      `  ${queues} queues: the console's overview makes ${2 + queues} API calls while at most 1,000 jobs are retrying (the list, the retrying jobs, then per queue the unreplayed dead letters counted), plus whoami and health`,
    );

    const p50 = await timeAndReport(cases, ITER, log);
    const r = (name: string, ours: string, theirs: string) =>
      log(`  ${name.padEnd(58)} ${(p50.get(ours)! / p50.get(theirs)!).toFixed(1).padStart(6)}x QueueFlow's own call`);
    log('\nthe console relative to QueueFlow at p50 (console ÷ QueueFlow; 1x = no cost added):');
    r('overview (adapter) vs GET /api/v1/queues', cases[0]![0], cases[1]![0]);
    r('100 dead letters (adapter) vs GET /api/v1/dlq?limit=100', cases[2]![0], cases[3]![0]);
    if (server) {
      r('overview over HTTP vs GET /api/v1/queues', cases[6]![0], cases[1]![0]);
      r('100 dead letters over HTTP vs GET /api/v1/dlq?limit=100', cases[7]![0], cases[3]![0]);
    }
    const churnEnd = await pendingOf(s, CHURN_QUEUE);
    log(
      `\nthe Python worker finished ${(churnStart - churnEnd).toLocaleString()} jobs of ${CHURN_QUEUE} during the measurements (load ${load()})`,
    );
  } finally {
    await server?.stop();
    await churn.stop();
    await fatal.stop();
    s.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
