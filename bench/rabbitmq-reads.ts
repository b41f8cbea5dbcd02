// `npm run bench:rabbitmq-reads`: the console's RabbitMQ 4 reads (overview and the newest 100
// dead letters) side by side with potatoq's own dashboard (over HTTP and in-process) and CLI, on
// a vhost of its own (created and deleted around the run), while a real potatoq worker churns
// through a queue (bench/side-by-side.ts). Seeded: BENCH_QUEUES queues with BENCH_WAITING waiting
// messages each, and potatoq-shaped letters in the first queue's DLQ (BENCH_LETTERS deep;
// tests/support/rabbit-dlq-seed.ts). Workers' heartbeats and results go to Redis db 6 under a
// prefix of the run's own. Run it while no test suite uses RabbitMQ 4 (the fault tests restart the
// broker). A script, not a test. See docs/performance.md.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { createRabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { potatoqProperties } from '@/lib/brokers/potatoq/rabbitmq/dlq';
import { parsePotatoqEnqueue } from '@/lib/brokers/potatoq/enqueue-fields';
import { buildFromFields } from '@/lib/brokers/potatoq/records';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { newTag, potatoqUrl, RMQ4_MGMT, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { seedDlq } from '@/tests/support/rabbit-dlq-seed';
import { runSideBySide } from './side-by-side';
import { createBenchVhost } from './rabbit-vhost';
import { CHURN_QUEUE, load, potatoqEnv } from './potatoq-side';

const BASE = process.env.POTATOQ_BENCH_RABBITMQ4_URL ?? RMQ4_URL;
const MGMT = process.env.POTATOQ_BENCH_RABBITMQ4_MGMT ?? RMQ4_MGMT;
const RESULTS = process.env.POTATOQ_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/6';
const QUEUES = Number(process.env.BENCH_QUEUES ?? 5);
const WAITING = Number(process.env.BENCH_WAITING ?? 2000);
const LETTERS = Number(process.env.BENCH_LETTERS ?? 2000);
const CHURN = Number(process.env.BENCH_CHURN ?? 150_000);
const log = (s: string) => console.log(s);

/** `n` messages as `potatoq call` sends them, straight to `queue` (declared potatoq's way first), with confirms. */
async function fill(url: string, queue: string, task: string, n: number): Promise<void> {
  const c = await amqp.connect(url);
  try {
    const ch = await c.createConfirmChannel();
    const now = Date.now() / 1000;
    for (let i = 0; i < n; i++) {
      const m = buildFromFields(parsePotatoqEnqueue({ task, queue, fields: { args: [i, `order-${i}`] } }), now);
      ch.publish('', queue, Buffer.from(m.json, 'utf8'), potatoqProperties(m.id, m.priority));
      if (i % 2000 === 1999) await ch.waitForConfirms();
    }
    await ch.waitForConfirms();
  } finally {
    await c.close();
  }
}

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const tag = newTag();
const vhost = `prq-reads-${tag}`;
const names = Array.from({ length: QUEUES }, (_, i) => `bench-r${i}`);
const dlqQueue = names[0]!;
log(`potatoq console RabbitMQ 4 reads benchmark: ${os.cpus().length} cores, load ${load()}, vhost ${vhost}`);
const own = await createBenchVhost(BASE, MGMT, vhost);
const url = own.url;
const py = spawnRabbitSeeder(url, RESULTS, tag);
const options = {
  managementUrl: MGMT,
  resultBackend: RESULTS,
  resultBackendOptions: { prefix: tag },
};
const a = createRabbitmqAdapter({ id: 'bench', name: 'bench', url, readOnly: false, options });
try {
  const t0 = Date.now();
  for (const q of [...names, CHURN_QUEUE]) await py.call('declare', { queue: q }); // potatoq's declarations (quorum, DLX, .dlq)
  for (const q of names) await fill(url, q, 'bench.work', WAITING);
  await seedDlq(url, dlqQueue, LETTERS);
  await fill(url, CHURN_QUEUE, 'bench.churn', CHURN);
  log(
    `seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${QUEUES} queues with ${WAITING.toLocaleString()} waiting each, ${LETTERS.toLocaleString()} letters in ${dlqQueue}.dlq, ${CHURN.toLocaleString()} in ${CHURN_QUEUE} for the worker`,
  );
  const env = {
    ...potatoqEnv(potatoqUrl(url)),
    BENCH_DEFAULT_QUEUE: dlqQueue,
    BENCH_QUEUES: names.join(','),
    BENCH_RESULT_BACKEND: RESULTS,
    BENCH_RESULT_OPTIONS: JSON.stringify({ prefix: tag }),
  };
  await runSideBySide({
    system: 'RabbitMQ 4',
    env,
    adapter: a,
    broker: { id: 'bench', url, ...options },
    log,
    heartbeat: async () => undefined,
    extra: [
      ['dead letters, one queue, page 1', () => a.listDead(ZDeadListQuery.parse({ limit: 50, queue: dlqQueue }))],
      ['dead-letter detail', () => a.getDead('no-such-id')],
      // What the dead-letter page asks for at once: its list, its error groups and its trend
      // chart. Overlapping reads of a DLQ share one browse (dlq-read.ts).
      [
        'dead-letter page: list + groups + trend at once',
        () =>
          Promise.all([
            a.listDead(ZDeadListQuery.parse({ limit: 50 })),
            a.deadGroups!({}),
            a.deadHistogram!({ fromMs: Date.now() - 86_400_000, bucketMs: 3_600_000, buckets: 24 }),
          ]),
      ],
    ],
    replayIds: null,
  });
} finally {
  await a.close();
  await py.call('cleanup').catch(() => undefined);
  await py.close();
  await own.remove().then(
    () => log(`\ndeleted vhost ${vhost}`),
    (e: unknown) => log(`\ncould not delete vhost ${vhost}: ${String(e)}`),
  );
}
