// One measuring process of `npm run bench:queues` (bench/queues.ts): the brokers of
// POTATOQ_CONSOLE_BROKERS read through the console's own service, shared reads off
// (POTATOQ_CONSOLE_READ_CACHE_MS=0) so every read asks the broker. Each case runs
// BENCH_ROUNDS times; printed as one `@@result` JSON line: median ms, the broker calls one run
// made (SQL statements, Redis commands, AMQP RPCs and HTTP requests sent: counted on the
// drivers' clients and `fetch`) and the
// answer's JSON bytes. BENCH_MODE=queues times one broker's reads; BENCH_MODE=brokers times
// one spread snapshot of every broker and builds the overview's summary line from it.
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import Redis from 'ioredis';

let calls = 0;
const pgQuery = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
  calls++;
  return pgQuery.apply(this, a);
} as typeof pg.Client.prototype.query;
const send = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, ...a: Parameters<typeof send>) {
  calls++;
  return send.apply(this, a);
};
// AMQP: every RPC a channel sends (passive declares, gets, opens); HTTP: every request the
// console's process sends (the RabbitMQ management API, QueueFlow's API).
const req = createRequire(import.meta.url);
const { Channel } = req(path.join(path.dirname(req.resolve('amqplib')), 'lib/channel.js')) as {
  Channel: { prototype: { _rpc: (...a: unknown[]) => unknown } };
};
const rpc = Channel.prototype._rpc;
Channel.prototype._rpc = function (this: unknown, ...a: unknown[]) {
  calls++;
  return rpc.apply(this, a);
};
const fetch0 = globalThis.fetch;
globalThis.fetch = (...a: Parameters<typeof fetch>) => {
  calls++;
  return fetch0(...a);
};

const { brokerList, overview } = await import('@/lib/brokers/service');
const { pageQueues } = await import('@/lib/brokers/queue-page');
const { renderSnapshot } = await import('@/lib/metrics/render');
const { takeSnapshot } = await import('@/lib/metrics/snapshot');
const { takeSamples } = await import('@/lib/trends/take');
const { summarise } = await import('@/lib/client/overview-summary');
const { resetAdapters } = await import('@/lib/brokers/registry');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Case {
  ms: number;
  calls: number;
  bytes: number;
}

async function time(fn: () => Promise<unknown>): Promise<Case> {
  await fn(); // warm: pools, prepared scripts
  const ms: number[] = [];
  let made = 0;
  let bytes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = calls;
    const t0 = performance.now();
    const out = await fn();
    ms.push(performance.now() - t0);
    made = calls - c0;
    bytes = typeof out === 'string' ? out.length : JSON.stringify(out).length;
  }
  return { ms: median(ms), calls: made, bytes };
}

async function queuesMode() {
  const id = brokerList()[0]!.id;
  const o = await overview(id);
  const search = o.queues[Math.floor(o.queues.length / 2)]?.name ?? '';
  return {
    queues: o.queues.length,
    overview: await time(() => overview(id)),
    page: await time(async () => pageQueues(await overview(id), { search: undefined, offset: 0, limit: 50 })),
    search: await time(async () => pageQueues(await overview(id), { search, offset: 0, limit: 50 })),
    metrics: await time(async () => renderSnapshot(await takeSnapshot())),
    trends: await time(() => takeSamples(Date.now(), 200)),
  };
}

async function brokersMode() {
  // Cold: every adapter connects and probes its broker first. Then the warm snapshot is measured.
  const c00 = calls;
  const cold = performance.now();
  await takeSnapshot();
  const coldMs = performance.now() - cold;
  const coldCalls = calls - c00;
  const t0 = performance.now();
  const starts: number[] = [];
  const c0 = calls;
  const snap = await takeSnapshot();
  const wall = performance.now() - t0;
  for (const b of snap.brokers) if (b.overview?.readAt) starts.push(Date.parse(b.overview.readAt));
  const s = summarise(
    snap.brokers.map((b) => ({ id: b.id, down: !b.ok, readMs: b.ok ? b.seconds * 1000 : undefined })),
    null,
  );
  const metrics = await time(async () => renderSnapshot(await takeSnapshot()));
  return {
    brokers: snap.brokers.length,
    coldMs,
    coldCalls,
    snapshotMs: wall,
    snapshotCalls: calls - c0,
    readMs: snap.brokers.filter((b) => b.ok).map((b) => b.seconds * 1000),
    spreadMs: starts.length ? Math.max(...starts) - Math.min(...starts) : 0,
    summary: `${s.up} up · ${s.slow} slow · ${s.down} down`,
    down: snap.brokers.filter((b) => !b.ok || b.stale).map((b) => `${b.id}: ${b.error?.code ?? 'ok'}${b.stale ? ' (stale)' : ''}`),
    metrics,
  };
}

const result = process.env.BENCH_MODE === 'brokers' ? await brokersMode() : await queuesMode();
process.stdout.write(`@@result ${JSON.stringify(result)}\n`);
await resetAdapters();
process.exit(0);
