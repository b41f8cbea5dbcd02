// `npm run bench:rabbitmq`: the RabbitMQ 4 bulk redrive (replayDeadPaced, one pass over the DLQ
// with publisher confirms) on a DLQ of BENCH_LETTERS letters (100,000 by default): first the
// bulk snapshot of the whole DLQ (deadIds), then a filtered part (one letter in three, spread
// through the DLQ), then the rest of the DLQ; then potatoq's own `potatoq dead retry` in the same
// run, for the ratio (BENCH_CLI_IDS ids of a BENCH_CLI_LETTERS-letter DLQ: it drains the DLQ per id). A script, not a test: it prints the rates and
// the machine's load, and deletes its queues (BENCH_QUEUE_PREFIX names them; default `bench`).
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createRabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { newTag, potatoqUrl, REDIS_URL, RMQ4_MGMT, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { seedDlq } from '@/tests/support/rabbit-dlq-seed';
import { potatoqCli, potatoqEnv, pythonStartup } from './potatoq-side';
import { createBenchVhost } from './rabbit-vhost';

const BASE = process.env.POTATOQ_BENCH_RABBITMQ4_URL ?? RMQ4_URL;
const MGMT = process.env.POTATOQ_BENCH_RABBITMQ4_MGMT ?? RMQ4_MGMT;
const N = Number(process.env.BENCH_LETTERS ?? 100_000);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 0);
/** Letters one DLQ channel holds before the next takes over (0: the adapter's LANE_PREFETCH). */
const PREFETCH = Number(process.env.BENCH_PREFETCH ?? 0);
/** Ids `potatoq dead retry` is timed on (each one drains the whole DLQ: keep it small). */
const CLI_IDS = Number(process.env.BENCH_CLI_IDS ?? 1);
const CLI_LETTERS = Number(process.env.BENCH_CLI_LETTERS ?? 10_000);
const log = (s: string) => console.log(s);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const rate = (n: number, s: number) => Math.round(n / s);

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const tag = newTag();
const queue = `${process.env.BENCH_QUEUE_PREFIX ?? 'bench'}${tag}`;
// A vhost of its own: other consoles on the shared broker browse every potatoq DLQ they discover.
const own = await createBenchVhost(BASE, MGMT, `prq-redrive-${tag}`);
const URL = own.url;
const py = spawnRabbitSeeder(URL, REDIS_URL, tag);
// Configured as the console's UI would be: with potatoq's result backend (one read per replayed letter).
const a = createRabbitmqAdapter({
  id: 'bench',
  name: 'bench',
  url: URL,
  readOnly: false,
  options: { queues: [queue], resultBackend: REDIS_URL, resultBackendOptions: { prefix: tag } },
});
try {
  await py.call('dead_letter_bulk', { queue, n: 0 }); // declares the queue and its DLQ potatoq's way
  let t = Date.now();
  const ids = await seedDlq(URL, queue, N);
  log(`seeded ${N} letters into ${queue}.dlq in ${((Date.now() - t) / 1000).toFixed(1)} s; load ${load()} (${os.cpus().length} cores)`);

  t = Date.now();
  const snap = await a.deadIds!({ queue }, 100_000);
  const snapS = (Date.now() - t) / 1000;
  log(
    `snapshot of every letter (deadIds, one pass): ${snap.ids.length} ids in ${snapS.toFixed(1)} s: ${rate(N, snapS)} letters/s; load ${load()}`,
  );

  const results: Array<[string, number]> = [];
  const run = async (label: string, want: string[]) => {
    t = Date.now();
    const r = await a.replayDeadPaced(want, { queue, ...(WINDOW ? { window: WINDOW } : {}), ...(PREFETCH ? { prefetch: PREFETCH } : {}) });
    const s = (Date.now() - t) / 1000;
    results.push([label, r.succeeded.length / s]);
    log(
      `${label}: ${r.succeeded.length}/${want.length} replayed, ${r.failed.length} failed, in ${s.toFixed(1)} s: ${rate(r.succeeded.length, s)} msgs/s; load ${load()}`,
    );
    if (r.failed.length) log(`  first failure: ${JSON.stringify(r.failed[0])}`);
  };
  await run(
    `filtered part (1 letter in 3 of a ${N}-letter DLQ)`,
    ids.filter((_, i) => i % 3 === 0),
  ); // "ValueError: group 0"
  await run(
    `the rest of the DLQ (${N - Math.ceil(N / 3)} letters)`,
    ids.filter((_, i) => i % 3 !== 0),
  );
  const left = await a.overview();
  const q = left.queues.find((x) => x.name === queue);
  log(`after: ${q?.counts.ready ?? '?'} in ${queue} (of ${N}), ${q?.dead ?? '?'} in its DLQ`);

  // potatoq's CLI: `dead retry` takes letters from the DLQ's head until it has seen them all
  // (up to 100,000) for each id, so it is timed on CLI_IDS ids of a CLI_LETTERS-letter DLQ
  // (same queue, refilled) and its rate scaled to N letters (linear in the depth).
  const M = Math.min(N, CLI_LETTERS);
  const cliDlq = await seedDlq(URL, queue, M);
  const env = { ...potatoqEnv(potatoqUrl(URL)), BENCH_DEFAULT_QUEUE: queue };
  const startup = pythonStartup(env);
  const cliIds = cliDlq.filter((_, i) => i % 3 === 0).slice(0, CLI_IDS);
  t = Date.now();
  const out = potatoqCli(env, ['dead', 'retry', ...cliIds]);
  const cliS = (Date.now() - t - startup) / 1000;
  const requeued = (out.match(/requeued/g) ?? []).length;
  const cliRate = ((requeued / cliS) * M) / N;
  log(
    `potatoq dead retry (${cliIds.length} ids of a ${M}-letter DLQ): ${requeued} requeued in ${cliS.toFixed(1)} s net of ${(startup / 1000).toFixed(1)} s start-up: ${(requeued / cliS).toFixed(2)} msgs/s, ${cliRate.toFixed(3)} msgs/s on ${N} letters; load ${load()}`,
  );
  for (const [label, r] of results) log(`ratio, ${label}: ${Math.round(r / cliRate)}x potatoq dead retry`);
} finally {
  await a.close();
  await py.call('cleanup').catch(() => undefined);
  await py.close();
  await own.remove().catch((e: unknown) => log(`could not delete vhost ${own.name}: ${String(e)}`));
}
