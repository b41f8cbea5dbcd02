// The console's writes racing real potatoq workers on a real Redis: a purge while a worker
// claims, two consoles replaying the same letters, and the poison payload that potatoq's
// own `dead list` cannot show.
// int-lane: uses redis/0 (a key prefix per test, workers on its queues)
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import { redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { listDead, readOverview } from '@/lib/brokers/potatoq/redis/reads';
import { discardDead, purgeQueue, replayDead } from '@/lib/brokers/potatoq/redis/writes';
import {
  cliDeadList,
  dropWorld,
  newWorld,
  redisAvailable,
  runs,
  spawnRedisSeeder,
  testClient,
  until,
  Worker,
  type World,
} from '@/tests/support/redis';

const up = await redisAvailable();

describe.skipIf(!up)('Redis: console writes racing real potatoq workers', () => {
  let c: Redis;
  let w: World | null = null;
  let seeder: PySeeder | null = null;
  const workers: Worker[] = [];
  beforeAll(async () => {
    c = testClient();
    await c.connect();
  });
  afterAll(() => c?.disconnect());
  afterEach(async () => {
    for (const x of workers.splice(0)) await x.stop();
    await seeder?.close();
    seeder = null;
    if (w) await dropWorld(c, w);
  });

  it('a purge racing a claiming worker: every task is either purged or run exactly once, and every run keeps its result', async () => {
    w = newWorld();
    const k = redisKeys(w.prefix);
    seeder = spawnRedisSeeder(w);
    const ids = await seeder.call<string[]>('send_many', { task: 'rt.record', n: 1500 });
    const worker = new Worker(w);
    workers.push(worker);
    worker.start([w.queue], { pool: 'prefork', concurrency: 2 });
    await until(
      'the worker to start claiming',
      () => runs(w!).size >= 20,
      60_000,
      () => worker.log,
      20,
    );
    const t0 = Date.now() / 1000;
    const r = await purgeQueue(c, w.prefix, w.queue, { slice: 25, pauseMs: 10 });
    const t1 = Date.now() / 1000;
    await until(
      'the queue to drain',
      async () => (await c.zcard(k.ready(w!.queue))) + (await c.zcard(k.active(w!.queue))) === 0,
      60_000,
      () => worker.log,
    );
    await worker.stop();
    const ran = runs(w);
    expect(r.purged).toBeGreaterThan(0);
    expect(ran.size).toBeGreaterThan(20);
    // The worker really claimed between the purge's slices (otherwise this proves nothing).
    expect([...ran.values()].filter(([x]) => x!.at > t0 && x!.at < t1).length).toBeGreaterThan(0);
    expect(r.purged + ran.size).toBe(ids.length);
    expect([...ran.values()].filter((x) => x.length !== 1)).toEqual([]);
    const pipe = c.pipeline();
    for (const id of ids) pipe.exists(k.job(id)).get(k.result(id));
    const res = (await pipe.exec()) ?? [];
    const left = ids.filter((_, i) => res[2 * i]?.[1] === 1);
    expect(left).toEqual([]); // no orphaned hash
    const resultless = ids.filter((id, i) => ran.has(id) && res[2 * i + 1]?.[1] === null);
    expect(resultless).toEqual([]); // potatoq's purge can delete a claimed task's hash, losing its result
    expect(ids.filter((id, i) => !ran.has(id) && res[2 * i + 1]?.[1] !== null)).toEqual([]);
  });

  it("potatoq's own purge deletes a task claimed in its window (its result is lost); the console's purge leaves a claimed task alone", async () => {
    w = newWorld();
    const k = redisKeys(w.prefix);
    seeder = spawnRedisSeeder(w);
    await seeder.call<string[]>('send_many', { task: 'rt.record', n: 5 });
    const theirs = await seeder.call<{ purged: number; claimed: string; completed: boolean }>('purge_race', { queue: w.queue });
    expect(theirs).toMatchObject({ purged: 5, completed: false });
    expect(await seeder.call('result', { id: theirs.claimed })).toBeNull();
    expect(await c.zscore(k.active(w.queue), theirs.claimed)).not.toBeNull(); // a dangling lease until the reaper runs
    const ids = await seeder.call<string[]>('send_many', { task: 'rt.record', n: 5 });
    const held = await seeder.call<string>('claim', { queue: w.queue });
    expect(await purgeQueue(c, w.prefix, w.queue)).toMatchObject({ purged: 4, skipped: 0 });
    expect(await seeder.call<boolean>('complete', {})).toBe(true);
    expect(await seeder.call('result', { id: held })).toMatchObject({ state: 'SUCCESS' });
    expect(ids).toContain(held);
  });

  it('two consoles replaying the same 300 letters at once: each letter is requeued exactly once', async () => {
    w = newWorld();
    const k = redisKeys(w.prefix);
    seeder = spawnRedisSeeder(w);
    const ids = await seeder.call<string[]>('send_many', { task: 'rt.fail', n: 300 });
    const worker = new Worker(w);
    workers.push(worker);
    worker.start([w.queue]);
    await until(
      '300 dead letters',
      async () => (await c.zcard(k.dead)) === 300,
      90_000,
      () => worker.log,
    );
    await worker.stop();
    const other = testClient();
    try {
      const [a, b] = await Promise.all([replayDead(c, w.prefix, ids), replayDead(other, w.prefix, [...ids].reverse())]);
      const wins = new Map<string, number>();
      for (const o of [...a, ...b]) if (o.outcome === 'ok') wins.set(o.id, (wins.get(o.id) ?? 0) + 1);
      expect(ids.filter((id) => wins.get(id) !== 1)).toEqual([]);
      expect([...a, ...b].filter((o) => o.outcome !== 'ok').every((o) => o.detail === 'not-dead:ready')).toBe(true);
    } finally {
      other.disconnect();
    }
    expect(await c.zcard(k.ready(w.queue))).toBe(300);
    expect(await c.zcard(k.dead)).toBe(0);
    expect(await cliDeadList(w)).toEqual([]);
  });

  it('a non-JSON payload dead-lettered as "worker lost too many times": shown and flagged, never replayed, discardable; potatoq dead list crashes on it', async () => {
    w = newWorld({ RT_DEAD_AFTER: '2', RT_MAX_DELIVERIES: '2' });
    const k = redisKeys(w.prefix);
    seeder = spawnRedisSeeder(w);
    const bad = await seeder.call<string>('raw', { queue: w.queue, payload: 'not json at all' });
    const worker = new Worker(w);
    workers.push(worker);
    worker.start([w.queue], { pool: 'prefork', concurrency: 1 });
    await until(
      'the poison to be dead-lettered',
      async () => (await c.hget(k.job(bad), 'st')) === 'dead',
      120_000,
      () => worker.log,
      500,
    );
    await worker.stop();
    const [row] = (await listDead(c, w.prefix, 10, null)).items;
    expect(row).toMatchObject({ id: bad, reason: 'worker lost too many times', deliveries: 2, task: null });
    expect(row?.problem?.kind).toBe('invalid-json');
    expect((await readOverview(c, w.prefix)).queues.find((q) => q.name === w!.queue)?.dead).toBe(1);
    await expect(cliDeadList(w)).rejects.toThrow(/JSONDecodeError/);
    expect((await replayDead(c, w.prefix, [bad]))[0]?.outcome).toBe('invalid');
    expect(await c.hget(k.job(bad), 'st')).toBe('dead');
    expect((await discardDead(c, w.prefix, [bad]))[0]?.outcome).toBe('ok');
    expect(await cliDeadList(w)).toEqual([]);
  });
});
