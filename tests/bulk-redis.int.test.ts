// Bulk jobs on potatoq's Redis broker through the service and the bulk runner (docs/bulk.md):
// a replay of one queue's letters, a paced discard of one error group, a revoke racing a real
// potatoq claim, and Redis killed in the middle of a bulk replay of 10,000 letters (a PRIVATE
// redis-server with AOF on a free port, started again on the same files): every letter ends
// dead or ready exactly once, the job says where it stopped, and resuming it finishes the job.
// int-lane: uses redis/0 (a key prefix of its own; the kill on a redis-server of its own)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import type { BulkAction, BulkFilter } from '@/lib/bulk/schema';
import type { BulkBackend } from '@/lib/bulk/snapshot';
import { spawnPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { dropPrefix, newPrefix, PrivateRedis, REDIS_URL, redisAvailable, redisServerAvailable, testClient } from '@/tests/support/redis';

const up = (await redisAvailable()) && redisServerAvailable('bulk jobs on Redis');
const TB = (last: string) => `Traceback (most recent call last):\n  File "/app/tasks.py", line 3, in run\n    boom()\n${last}\n`;

/** Dead letters as potatoq's `dead` script leaves them (hash + P:dead), written in pipelines. */
async function seedLetters(c: Redis, prefix: string, ids: string[], queue: string, reason = TB('ValueError: boom')) {
  const k = redisKeys(prefix);
  for (let i = 0; i < ids.length; i += 1000) {
    const pipe = c.pipeline();
    ids.slice(i, i + 1000).forEach((id, j) => {
      const died = 1_700_000_000_000 + i + j;
      const p = JSON.stringify({ task: 'bulk.t', id, args: [i + j], queue, enqueued_at: 1.5, v: 1 });
      pipe.hset(k.job(id), { q: queue, p, pr: '0', d: '1', st: 'dead', r: reason, died: String(died) });
      pipe.zadd(k.dead, died, id);
    });
    pipe.sadd(k.queues, queue);
    await pipe.exec();
  }
}
const idsOf = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}-${String(i).padStart(5, '0')}`);

async function jobFor(broker: string, action: BulkAction, filter: BulkFilter, rate: number | null = null) {
  const { serviceBackend } = await import('@/lib/bulk/backend');
  const { BulkJob } = await import('@/lib/bulk/runner');
  const { takeSnapshot } = await import('@/lib/bulk/snapshot');
  const backend: BulkBackend = serviceBackend(broker, action, filter);
  return new BulkJob({ brokerId: broker, action, filter, snapshot: await takeSnapshot(backend), backend, rate });
}

describe.skipIf(!up)('bulk jobs on Redis', () => {
  const prefix = newPrefix();
  const k = redisKeys(prefix);
  const server = new PrivateRedis();
  let c: Redis;
  let priv: Redis;
  let py: PySeeder;
  beforeAll(async () => {
    c = testClient();
    priv = await server.start();
    process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([
      { id: 'bulkredis', name: 'Bulk Redis', url: REDIS_URL, global_keyprefix: prefix },
      { id: 'faultredis', name: 'Fault Redis', url: server.url, prefix: 'fault' },
    ]);
    py = spawnPySeeder('seeder_redis_contract.py', [REDIS_URL, JSON.stringify({ global_keyprefix: prefix })]);
  }, 60_000);
  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    await py?.close();
    if (c) await dropPrefix(c, prefix);
    c?.disconnect();
    await server.stop();
  });

  it('replays every letter of one queue in batches of 500; other queues keep theirs', async () => {
    const wanted = idsOf('a', 1200);
    await seedLetters(c, prefix, wanted, 'bulk-a');
    await seedLetters(c, prefix, idsOf('b', 50), 'bulk-b');
    const job = await jobFor('bulkredis', 'replay', { queue: 'bulk-a' });
    job.start();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'done', progress: { total: 1200, succeeded: 1200, skipped: 0, failed: 0, batches: 3 } });
    expect(await c.zcard(k.ready('bulk-a'))).toBe(1200);
    expect(await c.zcard(k.dead)).toBe(50);
    expect(await c.hget(k.job('b-00007'), 'st')).toBe('dead');
  }, 120_000);

  it('discards one error group at a paced rate, batch by batch', async () => {
    await seedLetters(c, prefix, idsOf('g', 300), 'bulk-g', TB("KeyError: 'sku-1'"));
    const { deadGroups } = await import('@/lib/brokers/service');
    const group = (await deadGroups('bulkredis', { queue: 'bulk-g' })).groups.find((g) => g.pattern === 'KeyError: <str>')!;
    expect(group.count).toBe(300);
    const job = await jobFor('bulkredis', 'discard', { queue: 'bulk-g', group: group.fingerprint }, 150);
    const began = Date.now();
    job.start();
    await job.finished;
    // 150/s: batches of 150, the second one second after the first.
    expect(job.view()).toMatchObject({ state: 'done', batchSize: 500, progress: { total: 300, succeeded: 300, batches: 2 } });
    expect(Date.now() - began).toBeGreaterThanOrEqual(900);
    expect(await c.exists(k.job('g-00000'), k.job('g-00299'))).toBe(0);
    expect(await c.zcard(k.dead)).toBe(50);
  }, 120_000);

  it('replays at a paced rate, then a real potatoq consumer claims every replayed letter once', async () => {
    const wanted = idsOf('p', 200);
    await seedLetters(c, prefix, wanted, 'bulk-p');
    const job = await jobFor('bulkredis', 'replay', { queue: 'bulk-p' }, 100);
    const began = Date.now();
    job.start();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'done', rate: 100, progress: { total: 200, succeeded: 200, batches: 2 } });
    expect(Date.now() - began).toBeGreaterThanOrEqual(900);
    const claimed = new Set<string>();
    for (let i = 0; i < 200; i++) claimed.add(await py.call<string>('claim', { queue: 'bulk-p', timeout: 1 }));
    expect(claimed.size).toBe(200);
    expect(await py.call('claim', { queue: 'bulk-p', timeout: 0.2 })).toBeNull();
  }, 120_000);

  it('revokes the waiting tasks and skips one a real potatoq worker claimed after the snapshot', async () => {
    const ids = await py.call<string[]>('enqueue_many', { items: Array.from({ length: 40 }, () => ({ task: 'bulk.r', queue: 'bulk-r' })) });
    const job = await jobFor('bulkredis', 'revoke', { queue: 'bulk-r', state: 'ready' });
    const claimed = await py.call<string>('claim', { queue: 'bulk-r', timeout: 1 });
    job.start();
    await job.finished;
    const v = job.view();
    expect(v).toMatchObject({ state: 'done', progress: { total: 40, succeeded: 39, skipped: 1 } });
    expect(v.skippedOutcomes).toEqual([expect.objectContaining({ id: claimed, outcome: 'running' })]);
    expect(await c.hget(k.job(claimed), 'st')).toBe('active');
    expect(await c.zcard(k.ready('bulk-r'))).toBe(0);
    for (const id of ids.filter((x) => x !== claimed).slice(0, 5)) expect(await c.get(k.result(id))).toContain('"REVOKED"');
  }, 120_000);

  it('survives Redis killed mid-replay of 10,000 letters: nothing lost or doubled, the job says where it stopped and resumes', async () => {
    const P = 'fault';
    const f = redisKeys(P);
    const ids = idsOf('l', 10_000);
    await seedLetters(priv, P, ids, 'a');
    const job = await jobFor('faultredis', 'replay', { queue: 'a' });
    expect(job.total).toBe(10_000);
    const watcher = server.client();
    const killed = (async () => {
      while ((await watcher.zcard(f.ready('a'))) < 1500) await new Promise((r) => setTimeout(r, 2));
      // Hold the next script (CLIENT PAUSE holds EVALSHA) so the kill lands while a batch is in flight.
      await watcher.call('CLIENT', 'PAUSE', '10000', 'WRITE');
      await new Promise((r) => setTimeout(r, 100));
      await server.kill('SIGKILL');
    })();
    job.start();
    await job.finished;
    await killed;
    const failed = job.view();
    expect(failed.state).toBe('failed');
    expect(failed.error?.code).toMatch(/^Broker(Timeout|Unavailable)$/);
    const stop = failed.stoppedAt!;
    expect(stop.index % 500).toBe(0);
    expect(stop.index).toBeGreaterThanOrEqual(1500);
    expect(stop.id).toBe(job.snapshotIds()[stop.index]);
    expect(failed.progress).toMatchObject({ succeeded: stop.index, failed: 500, processed: stop.index + 500 });
    const restarted = await server.start();
    const where = async () => {
      const pipe = restarted.pipeline();
      for (const id of ids) pipe.hget(f.job(id), 'st').zscore(f.dead, id).zscore(f.ready('a'), id);
      const r = (await pipe.exec()) ?? [];
      return ids.map((id, i) => {
        const [st, dead, ready] = [r[3 * i]?.[1], r[3 * i + 1]?.[1], r[3 * i + 2]?.[1]];
        if (st === 'dead' && dead !== null && ready === null) return 'dead';
        if (st === 'ready' && dead === null && ready !== null) return 'ready';
        return `broken:${id}`;
      });
    };
    const after = await where();
    expect(after.filter((s) => s.startsWith('broken'))).toEqual([]);
    // In the job's order (newest letter first): everything before the failed batch was
    // reported done and is durable; nothing after it was touched.
    const state = new Map(ids.map((id, i) => [id, after[i]]));
    const order = job.snapshotIds().map((id) => state.get(id));
    expect(order.slice(0, stop.index).every((s) => s === 'ready')).toBe(true);
    expect(order.slice(stop.index + 500).every((s) => s === 'dead')).toBe(true);
    job.resume();
    await job.finished;
    const done = job.view();
    expect(done).toMatchObject({ state: 'done', error: null, stoppedAt: null, progress: { total: 10_000, failed: 0 } });
    expect(done.progress.succeeded + done.progress.skipped).toBe(10_000);
    expect(await where()).toEqual(ids.map(() => 'ready'));
    expect(await restarted.zcard(f.ready('a'))).toBe(10_000);
    expect(await restarted.zcard(f.dead)).toBe(0);
  }, 240_000);
});
