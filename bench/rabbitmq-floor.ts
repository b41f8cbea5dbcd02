// `npm run bench:rabbitmq-floor`: what an exact "newest 100 dead letters" costs on RabbitMQ 4 at
// the floor, next to what the console and potatoq's dashboard pay. RabbitMQ hands out a classic or
// quorum queue's letters from its head only, and a letter's died-at is in its headers, so an exact
// newest 100 has every letter delivered once; potatoq reads the 100 at the head. Timed in the same
// rounds, at each depth of BENCH_DEPTHS (default 500,2000,10000; the DLQ grows between them):
// the console's list (adapter), every letter delivered once by plain amqplib (no lock, no
// parsing, returned with one nack: the floor of any exact read), 100 `basic.get`s + nack by plain
// amqplib (what potatoq's dashboard sends) and potatoq's dashboard itself in-process. On a vhost of
// its own. A script, not a test. See docs/performance.md, "The floor of the newest 100".
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { createRabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { newTag, potatoqUrl, RMQ4_MGMT, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { seedDlq } from '@/tests/support/rabbit-dlq-seed';
import { dashboardInProcess, load, potatoqEnv, timeAndReport, type SelfTimed } from './potatoq-side';
import { createBenchVhost } from './rabbit-vhost';

const BASE = process.env.POTATOQ_BENCH_RABBITMQ4_URL ?? RMQ4_URL;
const MGMT = process.env.POTATOQ_BENCH_RABBITMQ4_MGMT ?? RMQ4_MGMT;
const RESULTS = process.env.POTATOQ_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/6';
const DEPTHS = (process.env.BENCH_DEPTHS ?? '500,2000,10000').split(',').map(Number);
const ITER = Number(process.env.BENCH_ITERATIONS ?? 20);
const log = (s: string) => console.log(s);

/** Waits (untimed) until every letter of `dlq` is ready again: the returns of one case are applied
 *  asynchronously, and the next case must find the whole DLQ (else it reads fewer letters). */
async function settled(c: amqp.ChannelModel, dlq: string, depth: number): Promise<void> {
  const ch = await c.createChannel();
  try {
    for (let i = 0; i < 5000 && (await ch.checkQueue(dlq)).messageCount < depth; i++) await new Promise((r) => setTimeout(r, 2));
  } finally {
    await ch.close();
  }
}

/** Every letter of `dlq` (`depth` of them) delivered once to one consumer, then all returned with one nack. */
async function deliverAll(c: amqp.ChannelModel, dlq: string, depth: number): Promise<number> {
  const ch = await c.createChannel();
  try {
    await ch.prefetch(Math.min(65_535, Math.max(1, depth)));
    let n = 0;
    let tag = '';
    await new Promise<void>((resolve, reject) => {
      if (depth === 0) return resolve();
      ch.consume(dlq, () => ++n === depth && resolve(), { noAck: false }).then((ok) => (tag = ok.consumerTag), reject);
    });
    if (tag) await ch.cancel(tag);
    ch.nackAll(true);
    return n;
  } finally {
    await ch.close();
  }
}

/** potatoq's `dead_letters(100)` on the wire: up to 100 `basic.get`s from the head, then a nack. */
async function getHundred(c: amqp.ChannelModel, dlq: string): Promise<number> {
  const ch = await c.createChannel();
  try {
    let n = 0;
    while (n < 100 && (await ch.get(dlq, { noAck: false })) !== false) n++;
    ch.nackAll(true);
    return n;
  } finally {
    await ch.close();
  }
}

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const tag = newTag();
const queue = 'bench-floor';
const dlq = `${queue}.dlq`;
log(`RabbitMQ 4 newest-100 floor: ${os.cpus().length} cores, load ${load()}, depths ${DEPTHS.join(', ')}`);
const own = await createBenchVhost(BASE, MGMT, `prq-floor-${tag}`);
const py = spawnRabbitSeeder(own.url, RESULTS, tag);
const a = createRabbitmqAdapter({ id: 'bench', name: 'bench', url: own.url, readOnly: false, options: { queues: [queue] } });
// noDelay as the console's own connection (connection.ts): a nack then a close would wait 40 ms.
const conn = await amqp.connect(own.url, { noDelay: true });
const dash = dashboardInProcess({
  ...potatoqEnv(potatoqUrl(own.url)),
  BENCH_DEFAULT_QUEUE: queue,
  BENCH_QUEUES: queue,
  BENCH_RESULT_BACKEND: RESULTS,
  BENCH_RESULT_OPTIONS: JSON.stringify({ prefix: tag }),
});
try {
  await py.call('declare', { queue }); // potatoq's declarations (quorum, DLX, .dlq)
  let depth = 0;
  for (const want of DEPTHS) {
    await seedDlq(own.url, queue, want - depth);
    depth = want;
    const listed = await a.listDead(ZDeadListQuery.parse({ limit: 100 }));
    const seen = await deliverAll(conn, dlq, depth);
    await settled(conn, dlq, depth);
    if (listed.items.length !== Math.min(100, depth) || seen !== depth)
      throw new Error(`depth ${depth}: listed ${listed.items.length}, delivered ${seen}`);
    log(`\nDLQ of ${depth.toLocaleString()} letters (load ${load()}):`);
    // Each case timed on its own (selfMs), then the DLQ settles back to its depth, untimed.
    const timed = (fn: () => Promise<unknown>) => async (): Promise<SelfTimed> => {
      const t0 = performance.now();
      const r = (await fn()) as Partial<SelfTimed>;
      const ms = typeof r?.selfMs === 'number' ? r.selfMs : performance.now() - t0;
      await settled(conn, dlq, depth);
      return { selfMs: ms };
    };
    const p50 = await timeAndReport(
      [
        ['console: newest 100 (adapter listDead)', timed(() => a.listDead(ZDeadListQuery.parse({ limit: 100 })))],
        ['floor: every letter delivered once (plain amqplib)', timed(() => deliverAll(conn, dlq, depth))],
        ['potatoq on the wire: 100 basic.get + nack (plain amqplib)', timed(() => getHundred(conn, dlq))],
        ['potatoq dashboard dead100 (in-process)', timed(() => dash.time('dead100'))],
      ],
      ITER,
      log,
    );
    const [mine, floor, wire, pq] = [...p50.values()] as [number, number, number, number];
    log(`  console / floor ${(mine / floor).toFixed(2)}x; floor per letter ${((floor * 1000) / depth).toFixed(1)} µs`);
    log(
      `  potatoq dashboard / console ${(pq / mine).toFixed(2)}x; potatoq dashboard / floor ${(pq / floor).toFixed(2)}x; 100 gets / floor ${(wire / floor).toFixed(2)}x`,
    );
  }
} finally {
  await dash.stop().catch(() => undefined);
  await conn.close().catch(() => undefined);
  await a.close();
  await py.call('cleanup').catch(() => undefined);
  await py.close();
  await own.remove().then(
    () => log(`\ndeleted vhost ${own.name}`),
    (e: unknown) => log(`\ncould not delete vhost ${own.name}: ${String(e)}`),
  );
}
