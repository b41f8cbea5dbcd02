// `npm run bench:rabbitmq`: the RabbitMQ 4 bulk redrive (replayDeadPaced, one pass over the DLQ
// with publisher confirms) on a DLQ of BENCH_LETTERS letters (100,000 by default): first a
// filtered part (one reason group of three, spread through the DLQ), then the rest of the DLQ.
// A script, not a test: it prints the rates and the machine's load, and deletes its queues.
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createRabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { newTag, REDIS_URL, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { seedDlq } from '@/tests/support/rabbit-dlq-seed';

const URL = process.env.POTATOQ_BENCH_RABBITMQ4_URL ?? RMQ4_URL;
const N = Number(process.env.BENCH_LETTERS ?? 100_000);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 0);
const log = (s: string) => console.log(s);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const tag = newTag();
const queue = `bench${tag}`;
const py = spawnRabbitSeeder(URL, REDIS_URL, tag);
const a = createRabbitmqAdapter({ id: 'bench', name: 'bench', url: URL, readOnly: false, options: { queues: [queue] } });
try {
  await py.call('dead_letter_bulk', { queue, n: 0 }); // declares the queue and its DLQ potatoq's way
  let t = Date.now();
  const ids = await seedDlq(URL, queue, N);
  log(`seeded ${N} letters into ${queue}.dlq in ${((Date.now() - t) / 1000).toFixed(1)} s; load ${load()} (${os.cpus().length} cores)`);

  const part = ids.filter((_, i) => i % 3 === 0); // "ValueError: group 0"
  const run = async (label: string, want: string[]) => {
    t = Date.now();
    const r = await a.replayDeadPaced(want, { queue, ...(WINDOW ? { window: WINDOW } : {}) });
    const s = (Date.now() - t) / 1000;
    log(
      `${label}: ${r.succeeded.length}/${want.length} replayed, ${r.failed.length} failed, in ${s.toFixed(1)} s: ${Math.round(r.succeeded.length / s)} msgs/s; load ${load()}`,
    );
    if (r.failed.length) log(`  first failure: ${JSON.stringify(r.failed[0])}`);
  };
  await run(`filtered part (1 letter in 3 of a ${N}-letter DLQ)`, part);
  const rest = ids.filter((_, i) => i % 3 !== 0);
  await run(`the rest of the DLQ (${rest.length} letters)`, rest);
  const left = await a.overview();
  const q = left.queues.find((x) => x.name === queue);
  log(`after: ${q?.ready ?? '?'} in ${queue}, ${q?.dead ?? '?'} in its DLQ`);
} finally {
  await a.close();
  await py.call('cleanup').catch(() => undefined);
  await py.close();
}
