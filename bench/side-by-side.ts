// The measuring half of bench:postgres and bench:sqlite: with a real potatoq worker churning
// through a queue, the console's adapter and potatoq's own dashboard answer the same questions
// on the same data in one round-robin, then potatoq's dashboard in-process and its CLI; ratios
// are printed (ratios within one run are what count on a shared machine).
import type { BrokerAdapter } from '@/lib/brokers/types';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import {
  anyGet,
  CHURN_QUEUE,
  cpuMs,
  dashboardGet,
  consoleInProcess,
  dashboardInProcess,
  load,
  pct,
  potatoqCli,
  pythonStartup,
  startChurn,
  startConsole,
  startDashboard,
  timeAndReport,
  timeCli,
} from './potatoq-side';

const ITER = Number(process.env.BENCH_ITERATIONS ?? 30);
const OWN_OVERVIEW = 'console overview, adapter in its own process (+ JSON)';
const OWN_DEAD = 'console dead letters, newest 100, adapter in its own process (+ JSON)';

export interface SideBySide {
  system: string;
  env: NodeJS.ProcessEnv;
  adapter: BrokerAdapter;
  log: (s: string) => void;
  /** The console's broker entry (POTATOQ_CONSOLE_BROKERS) for the over-HTTP comparison. */
  broker: Record<string, unknown>;
  /** More console-only cases, timed in the same rounds. */
  extra: Array<[string, () => Promise<unknown>]>;
  /** Refreshes the seeded workers' heartbeats (called every 5 s): their 50,000 running tasks
   *  would otherwise be requeued by the churning worker's recovery a minute in. */
  heartbeat: () => Promise<void>;
  /** Ids of dead letters `from`..`from + n - 1` for the bulk replays; null skips the writes. */
  replayIds: ((from: number, n: number) => string[]) | null;
}

const waiting = (env: NodeJS.ProcessEnv, queue: string) =>
  (JSON.parse(potatoqCli(env, ['queues', '--json'])) as Record<string, number>)[queue] ?? 0;

export async function runSideBySide(o: SideBySide): Promise<void> {
  const { adapter: a, env, log } = o;
  await o.heartbeat();
  const beat = setInterval(() => void o.heartbeat().catch((e: unknown) => log(`  heartbeat failed: ${String(e)}`)), 5000);
  const churnBefore = waiting(env, CHURN_QUEUE);
  const churn = startChurn(env);
  const dashboard = await startDashboard(env);
  const inproc = dashboardInProcess(env);
  const own = consoleInProcess(o.broker);
  const server = await startConsole(o.broker);
  try {
    if (!server) log('  no production build (.next/BUILD_ID): the console over HTTP is not measured; run `npx next build` first');
    await new Promise((r) => setTimeout(r, 3000));
    const churnStart = waiting(env, CHURN_QUEUE);
    log(`  potatoq worker churning through ${CHURN_QUEUE}: ${churnBefore - churnStart} tasks done in its first seconds`);
    const dead100 = () => a.listDead(ZDeadListQuery.parse({ limit: 100 }));
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['console overview (adapter + JSON.stringify)', async () => JSON.stringify(await a.overview())],
      ['potatoq dashboard GET /api/overview (HTTP)', () => dashboardGet(dashboard.url, '/api/overview')],
      ['console dead letters, newest 100 (adapter + JSON)', async () => JSON.stringify(await dead100())],
      ['potatoq dashboard GET /api/dead?limit=100 (HTTP)', () => dashboardGet(dashboard.url, '/api/dead?limit=100')],
      ["potatoq Dashboard.handle('/api/overview'), in its process", () => inproc.time('overview')],
      ["potatoq Dashboard.handle('/api/dead?limit=100'), in its process", () => inproc.time('dead100')],
      ...(server
        ? ([
            [
              'console GET /api/brokers/bench/queues (HTTP, production server)',
              () => dashboardGet(server.url, '/api/brokers/bench/queues'),
            ],
            ['console GET /api/brokers/bench/dead?limit=100 (HTTP)', () => dashboardGet(server.url, '/api/brokers/bench/dead?limit=100')],
          ] as Array<[string, () => Promise<unknown>]>)
        : []),
      // The console's adapter timed in a process of its own, as potatoq's handler is.
      [OWN_OVERVIEW, () => own.time('overview')],
      [OWN_DEAD, () => own.time('dead100')],
      ...o.extra,
      // The floor of an HTTP round trip on this machine at this moment: each server's answer to
      // a path it refuses without reading anything (404).
      ...(server
        ? ([
            ['HTTP floor: console GET /api/brokers/none/dead (404, no read)', () => anyGet(server.url, '/api/brokers/none/dead')],
            ['HTTP floor: potatoq dashboard GET /api/none (404)', () => anyGet(dashboard.url, '/api/none')],
          ] as Array<[string, () => Promise<unknown>]>)
        : []),
    ];
    // Same letters: the console's 100 newest are the dashboard's 100 newest.
    const ours = (await dead100()).items.map((d) => d.id);
    const theirs = ((await dashboardGet(dashboard.url, '/api/dead?limit=100')) as Array<{ id: string }>).map((d) => d.id);
    const differ = ours.findIndex((id, i) => id !== theirs[i]);
    const same = ours.length === theirs.length && differ < 0;
    log(
      `  the 100 newest dead letters are the same in both: ${same ? 'yes' : `NO (console ${ours.length}, dashboard ${theirs.length}; first difference at #${differ}: ${ours[differ]} vs ${theirs[differ]})`}`,
    );
    const p50 = await timeAndReport(cases, ITER, log);
    const cOverview = p50.get(cases[0]![0])!;
    const cDead = p50.get(cases[2]![0])!;
    const ratio = (name: string, theirs: number, ours: number, target: number) =>
      log(
        `  ${name.padEnd(58)} ${(theirs / ours).toFixed(1).padStart(6)}x  ${theirs / ours >= target ? 'ok' : 'UNDER'} (target ${target}x)`,
      );
    log('\nratios at p50 (potatoq dashboard / console):');
    ratio('overview, dashboard in-process vs console adapter', p50.get(cases[4]![0])!, cOverview, 10);
    ratio('overview, dashboard over HTTP vs console adapter', p50.get(cases[1]![0])!, cOverview, 10);
    ratio('100 dead letters, dashboard in-process vs console adapter', p50.get(cases[5]![0])!, cDead, 3);
    ratio('100 dead letters, dashboard over HTTP vs console adapter', p50.get(cases[3]![0])!, cDead, 3);
    ratio('overview, both in a process of their own', p50.get(cases[4]![0])!, p50.get(OWN_OVERVIEW)!, 10);
    ratio('100 dead letters, both in a process of their own', p50.get(cases[5]![0])!, p50.get(OWN_DEAD)!, 3);
    if (server) {
      ratio('overview, both over HTTP', p50.get(cases[1]![0])!, p50.get(cases[6]![0])!, 10);
      ratio('100 dead letters, both over HTTP', p50.get(cases[3]![0])!, p50.get(cases[7]![0])!, 3);
    }

    if (server) {
      // What each server process spends per request, whatever the scheduler did to the wall
      // time: CPU time of the serving process (all threads) over a run of the same request.
      // PostgreSQL's own CPU is not in it (potatoq's overview count(*) is mostly there).
      const perRequest = async (pid: number, url: string, p: string, n: number) => {
        const c0 = cpuMs(pid);
        for (let i = 0; i < n; i++) await dashboardGet(url, p);
        return (cpuMs(pid) - c0) / n;
      };
      log("\nserver process CPU per request (user + system, all threads; the same requests in a row; the database's CPU not included):");
      for (const [what, ours, theirs, n, target] of [
        ['overview', '/api/brokers/bench/queues', '/api/overview', 20, 10],
        ['100 dead letters', '/api/brokers/bench/dead?limit=100', '/api/dead?limit=100', 200, 3],
      ] as const) {
        const c = await perRequest(server.pid, server.url, ours, n);
        const d = await perRequest(dashboard.pid, dashboard.url, theirs, n);
        log(
          `  ${what.padEnd(18)} console ${c.toFixed(2).padStart(7)} ms  potatoq dashboard ${d.toFixed(2).padStart(7)} ms  ${(d / Math.max(c, 0.01)).toFixed(1)}x (latency target ${target}x)`,
        );
      }
    }

    const startup = pythonStartup(env);
    const net = (ms: number) => Math.max(1, ms - startup);
    const med3 = (args: string[]) => pct([timeCli(env, args), timeCli(env, args), timeCli(env, args)], 50);
    const queues = med3(['queues', '--json']);
    const list = med3(['dead', 'list', '--limit', '100', '--json']);
    log(`\npotatoq CLI on the same data (wall time, median of 3; Python start-up ${startup.toFixed(0)} ms subtracted):`);
    log(
      `  ${'potatoq queues --json'.padEnd(58)} ${net(queues).toFixed(0).padStart(6)} ms  ${(net(queues) / cOverview).toFixed(1)}x the console overview`,
    );
    log(
      `  ${'potatoq dead list --limit 100 --json'.padEnd(58)} ${net(list).toFixed(0).padStart(6)} ms  ${(net(list) / cDead).toFixed(1)}x the console's 100`,
    );
    if (o.replayIds) {
      const ids = o.replayIds(1, 10_000);
      const t0 = performance.now();
      const r = await a.replayDead(ids);
      const ms = performance.now() - t0;
      const rate = Math.round(r.succeeded.length / (ms / 1000));
      log(
        `\nconsole bulk replay of 10,000 dead letters: ${ms.toFixed(0)} ms = ${rate.toLocaleString()} letters/s (${r.failed.length} failed; target 5,000/s)`,
      );
      if (r.failed[0]) log(`  first failure: ${JSON.stringify(r.failed[0])}`);
      // potatoq's own retry can fail while its worker runs (a PostgreSQL run of 2026-12-01 ended in
      // "deadlock detected" on its INSERT): reported, and the run goes on.
      let retry: number | null = null;
      try {
        retry = timeCli(env, ['dead', 'retry', ...o.replayIds(20_001, 1000)]);
      } catch (e) {
        const err = String((e as { stderr?: unknown }).stderr ?? e)
          .trim()
          .split('\n');
        log(`potatoq dead retry <1,000 ids> failed: ${err.find((l) => /^\w+(\.\w+)*(Error|Exception|Detected)\b/.test(l)) ?? err.at(-1)}`);
      }
      const c0 = performance.now();
      await a.replayDead(o.replayIds(30_001, 1000));
      const ours1000 = performance.now() - c0;
      if (retry !== null)
        log(
          `potatoq dead retry <1,000 ids>: ${Math.round(1000 / (net(retry) / 1000))}/s net vs console replay of 1,000 in ${ours1000.toFixed(0)} ms: ${(net(retry) / ours1000).toFixed(1)}x`,
        );
      else log(`console replay of 1,000: ${ours1000.toFixed(0)} ms`);
    }
    const churnEnd = waiting(env, CHURN_QUEUE);
    log(
      `\npotatoq worker finished ${(churnStart - churnEnd).toLocaleString()} tasks of ${CHURN_QUEUE} during the measurements (load ${load()})`,
    );
  } finally {
    clearInterval(beat);
    await server?.stop();
    await inproc.stop();
    await own.stop();
    await dashboard.stop();
    await churn.stop();
  }
}
