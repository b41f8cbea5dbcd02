// Round trips with the REAL potatoq 26.1a8 (its producer, worker and CLI) on a real Redis and a
// real Valkey (potatoq and the console both given the `valkey://` URL as it is),
// through the console's adapter (the contract's DTOs, per-id outcomes): what potatoq writes the
// console reads; what the console writes potatoq runs with Python types; a revoked task never
// runs; and the console agrees with `potatoq dead list --json` after each action.
// int-lane: uses redis/0 valkey/0 (a key prefix per test, workers on its queues)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import { reasonSummary } from '@/lib/pyvalues';
import { ZDeadListQuery, ZEnqueueRequest, type EnqueueResult } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { checkServer } from '@/lib/transports/redis/server';
import { redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { revokedRecord } from '@/lib/brokers/potatoq/redis/writes';
import {
  cliDeadList,
  dropWorld,
  newWorld,
  potatoqCli,
  redisAvailable,
  redisTargets,
  runs,
  spawnRedisSeeder,
  testClient,
  until,
  Worker,
  type World,
} from '@/tests/support/redis';
import { taskQuery } from '@/tests/support/task-query';

const up = await redisAvailable();
const targets = await redisTargets();

describe.each(targets.map((t) => [t.name, t.url] as const))('%s round trips with the real potatoq 26.1a8', (name, url) => {
  let c: Redis;
  let w: World;
  let seeder: PySeeder;
  let worker: Worker;
  let k: ReturnType<typeof redisKeys>;
  let a: BrokerAdapter;
  const ids: Record<string, string> = {};
  const deadList = async () => (await a.listDead(ZDeadListQuery.parse({ limit: 500 }))).items;
  const enqueue = ({ task, queue, ...fields }: Record<string, unknown>): Promise<EnqueueResult> =>
    a.enqueue(ZEnqueueRequest.parse({ task, queue, fields }));
  const okIds = (r: { succeeded: Array<{ id: string }> }) => r.succeeded.map((o) => o.id);
  const state = async (id: string) => (await c.hget(k.job(id), 'st')) ?? 'gone';

  /** The console's dead letters and potatoq's own `dead list --json` must say the same. */
  async function expectDeadListsAgree() {
    const cli = await cliDeadList(w);
    const ours = (await deadList()).filter((r) => !r.summary.startsWith('orphaned entry'));
    expect(ours.map((r) => [r.id, r.queue, r.task, r.summary, r.diedAt])).toEqual(
      cli.map((e) => [e.id, e.queue, e.task, reasonSummary(e.reason), new Date(Math.round(e.died_at * 1000)).toISOString()]),
    );
    return cli;
  }

  beforeAll(async () => {
    w = newWorld({}, url);
    k = redisKeys(w.prefix);
    c = testClient(url);
    await c.connect();
    seeder = spawnRedisSeeder(w);
    a = createRedisAdapter({
      id: 'rt',
      name: 'Redis round trips',
      url: w.env.RT_BROKER!,
      readOnly: false,
      options: { global_keyprefix: w.prefix },
    });
    ids.fail = await seeder.call<string>('send', { task: 'rt.fail', args: ['boom-rt'] });
    ids.reject = await seeder.call<string>('send', { task: 'rt.reject', args: ['not today'] });
    ids.unknown = await seeder.call<string>('send', { task: 'rt.unknown', args: [1] });
    ids.flaky = await seeder.call<string>('send', { task: 'rt.flaky', typed: true, kwargs: { k: 'v' } });
    ids.ok = await seeder.call<string>('send', { task: 'rt.record', args: [1] });
    ids.later = await seeder.call<string>('send', { task: 'rt.record', args: [2], countdown: 3600 });
    worker = new Worker(w);
    worker.start([w.queue]);
    await until(
      'the worker to dead-letter four tasks',
      async () => (await c.zcard(k.dead)) === 4 && runs(w).has(ids.ok!),
      60_000,
      () => worker.log,
    );
  });
  afterAll(async () => {
    await a?.close();
    await worker?.stop();
    await seeder?.close();
    if (c) await dropWorld(c, w);
    c?.disconnect();
  });

  it(`runs on ${name} itself (INFO server_name), and potatoq's worker took the same URL`, async () => {
    expect((await checkServer(c)).server).toBe(name);
    expect(w.env.RT_BROKER).toBe(url);
  });

  it('reads what potatoq wrote: a failure with its traceback, a rejection, an unregistered task, a scheduled task and a result', async () => {
    const dead = new Map((await deadList()).map((r) => [r.id, r]));
    expect(dead.get(ids.fail!)).toMatchObject({ task: 'rt.fail', queue: w.queue, summary: 'ValueError: boom-rt' });
    const fail = await a.getDead(ids.fail!);
    expect(fail?.reason).toMatch(/^Traceback \(most recent call last\):\n[\s\S]*ValueError: boom-rt\n$/);
    expect(fail?.payload).toMatchObject({ format: 'potatoq', task: 'rt.fail', foreign: null });
    expect(dead.get(ids.reject!)?.summary).toBe('not today');
    // Not the contract's "Task '…' is not registered. Did you import …" (that text is the FAILURE record's traceback).
    expect((await a.getDead(ids.unknown!))?.reason).toBe('unregistered task rt.unknown');
    const later = (await a.listTasks(taskQuery({ queue: w.queue, state: 'scheduled' }))).items;
    expect(later.map((r) => r.id)).toEqual([ids.later]);
    expect(Date.parse(later[0]!.runAt!) / 1000 - Date.now() / 1000).toBeGreaterThan(3500);
    const results = (await a.listResults({ status: undefined, limit: 100 })).items;
    expect(results.find((r) => r.id === ids.ok)).toMatchObject({ status: 'SUCCESS', name: 'rt.record' });
    expect((await a.getResult(ids.ok!))?.status).toBe('SUCCESS');
    const detail = await a.getDead(ids.flaky!);
    expect(detail?.payload.format).toBe('potatoq');
    const o = await a.overview();
    expect(o.queues.find((q) => q.name === w.queue)).toMatchObject({ dead: 4, counts: { scheduled: 1 } });
    expect((await a.listWorkers()).some((x) => x.status === 'alive' && x.queues.includes(w.queue))).toBe(true);
    expect(await a.taskNames()).toEqual(expect.arrayContaining(['rt.fail', 'rt.record', 'rt.flaky']));
    await expectDeadListsAgree();
  });

  it('enqueues what the real worker runs with Python types, scheduled ones not before they are due', async () => {
    const now = await enqueue({
      task: 'rt.record',
      queue: w.queue,
      args: '[{"__potatoq__":"datetime","v":"2024-01-02T03:04:05+00:00"},{"__potatoq__":"decimal","v":"1.10"},1180591620717411303424,1.0]',
      kwargs: '{"u":{"__potatoq__":"uuid","v":"12345678-1234-5678-1234-567812345678"}}',
    });
    const sent = Date.now() / 1000;
    const soon = await enqueue({ task: 'rt.record', queue: w.queue, args: '["soon"]', countdown: 2 });
    expect(soon.state).toBe('scheduled');
    const run = await until(
      "the worker to run the console's task",
      () => runs(w).get(now.id),
      30_000,
      () => worker.log,
    );
    expect(run[0]!.types).toEqual(['datetime', 'Decimal', 'int', 'float']);
    expect(run[0]!.args[1]).toBe("Decimal('1.10')");
    expect(run[0]!.kwargs.u).toBe("UUID('12345678-1234-5678-1234-567812345678')");
    const later = await until(
      'the scheduled task to run',
      () => runs(w).get(soon.id),
      30_000,
      () => worker.log,
    );
    expect(later[0]!.at).toBeGreaterThanOrEqual(sent + 1.9);
  });

  it('replays a dead letter that the worker then runs with its original types; potatoq agrees after each step', async () => {
    writeFileSync(path.join(w.out, 'flaky-ok'), '');
    expect(okIds(await a.replayDead([ids.flaky!]))).toEqual([ids.flaky]);
    const cli = await expectDeadListsAgree();
    expect(cli.map((e) => e.id)).not.toContain(ids.flaky);
    const run = await until(
      'the replayed task to run',
      () => runs(w).get(ids.flaky!),
      30_000,
      () => worker.log,
    );
    expect(run[0]!.types).toEqual(['datetime', 'Decimal', 'UUID', 'bytes', 'set', 'timedelta', 'int']);
    expect(run[0]!.kwargs).toEqual({ k: "'v'" });
    await until('the replayed task to finish', async () => (await state(ids.flaky!)) === 'gone');
    // The failing task again: replayed, run, dead again with a fresh died time.
    const before = Number(await c.zscore(k.dead, ids.fail!));
    expect(okIds(await a.replayDead([ids.fail!]))).toEqual([ids.fail]);
    await until(
      'the failing task to die again',
      async () => (await state(ids.fail!)) === 'dead' && Number(await c.zscore(k.dead, ids.fail!)) > before,
      30_000,
      () => worker.log,
    );
    await expectDeadListsAgree();
    // potatoq's own retry of an unknown id: "missing", and still exit code 0 (execFile would reject otherwise)
    expect(await potatoqCli(w, ['dead', 'retry', 'no-such-id'])).toContain("isn't in the dead letters");
    // potatoq's own retry (the worker re-runs it at once, so it is seen dying again, later)
    const rejectedAt = (await deadList()).find((r) => r.id === ids.reject)!.diedAt!;
    expect(await potatoqCli(w, ['dead', 'retry', ids.reject!])).toContain('requeued');
    await until(
      'the rejected task to die again',
      async () => ((await deadList()).find((r) => r.id === ids.reject)?.diedAt ?? '') > rejectedAt,
      30_000,
      () => worker.log,
    );
    await expectDeadListsAgree();
  });

  it("revokes waiting tasks so the worker never runs them, refuses dead letters, and cleans up potatoq revoke's orphans", async () => {
    const held = `${w.queue}-held`;
    const r1 = await enqueue({ task: 'rt.record', queue: held, args: '["revoked"]' });
    const r2 = await enqueue({ task: 'rt.record', queue: held, args: '["revoked-later"]', countdown: 1 });
    const out = await a.revoke([r1.id, r2.id, ids.unknown!]);
    expect(okIds(out)).toEqual([r1.id, r2.id]);
    expect(out.failed).toEqual([{ id: ids.unknown, outcome: 'conflict', message: expect.stringContaining('is a dead letter') }]);
    const w2 = new Worker(w);
    w2.start([held]);
    try {
      const marker = await enqueue({ task: 'rt.record', queue: held, args: '["after"]', countdown: 1.5 });
      await until(
        'the marker task to run after the revoked ones were due',
        () => runs(w).get(marker.id),
        30_000,
        () => w2.log,
      );
    } finally {
      await w2.stop();
    }
    expect(runs(w).has(r1.id) || runs(w).has(r2.id)).toBe(false);
    expect(await seeder.call('result', { id: r1.id })).toMatchObject({ state: 'REVOKED', name: null });
    expect((await cliDeadList(w)).map((e) => e.id)).toContain(ids.unknown);
    // The console's REVOKED record is byte for byte the one potatoq's own revoke stores (unknown id).
    await potatoqCli(w, ['revoke', 'cli-unknown-id']);
    const theirs = (await c.get(k.result('cli-unknown-id')))!;
    expect(revokedRecord('cli-unknown-id', (JSON.parse(theirs) as { date_done: number }).date_done)).toBe(theirs);
    expect(Math.abs((await c.pttl(k.result('cli-unknown-id'))) - (await c.pttl(k.result(r1.id))))).toBeLessThan(30_000);
    // potatoq's own revoke of a dead letter deletes its hash and leaves the id in P:dead.
    await potatoqCli(w, ['revoke', ids.unknown!]);
    expect(await c.zscore(k.dead, ids.unknown!)).not.toBeNull();
    expect(await c.exists(k.job(ids.unknown!))).toBe(0);
    await expectDeadListsAgree();
    expect((await deadList()).find((r) => r.id === ids.unknown)?.summary).toMatch(/^orphaned entry/);
    expect((await a.discardDead([ids.unknown!])).succeeded).toEqual([
      { id: ids.unknown, outcome: 'ok', message: expect.stringContaining('orphaned') },
    ]);
    expect(await c.zscore(k.dead, ids.unknown!)).toBeNull();
    // Discard: gone for potatoq too.
    expect(okIds(await a.discardDead([ids.fail!]))).toEqual([ids.fail]);
    expect((await expectDeadListsAgree()).map((e) => e.id)).not.toContain(ids.fail);
  });
});

describe.skipIf(!up)('Redis: a non-JSON payload the real worker dead-letters, through the adapter', () => {
  it('is shown and flagged as "worker lost too many times", never replayed, and discarded; potatoq dead list crashes on it', async () => {
    const w = newWorld({ RT_DEAD_AFTER: '2', RT_MAX_DELIVERIES: '2' });
    const c = testClient();
    const seeder = spawnRedisSeeder(w);
    const worker = new Worker(w);
    const a = createRedisAdapter({ id: 'rt', name: 'poison', url: w.env.RT_BROKER!, readOnly: false, options: { prefix: w.prefix } });
    try {
      const bad = await seeder.call<string>('raw', { queue: w.queue, payload: 'not json at all' });
      // The queue's next claim crashes a worker slot: the overview says so before it happens.
      expect((await a.overview()).queues.find((q) => q.name === w.queue)?.blockedBy).toMatchObject({ id: bad, foreign: 'invalid-json' });
      worker.start([w.queue], { pool: 'prefork', concurrency: 1 });
      await until(
        'the poison to be dead-lettered',
        async () => (await a.getDead(bad)) !== null,
        120_000,
        () => worker.log,
        500,
      );
      await worker.stop();
      const d = (await a.getDead(bad))!;
      expect(d).toMatchObject({ reason: 'worker lost too many times', summary: 'worker lost too many times', task: '(unknown)' });
      expect(d.payload.foreign).toMatchObject({ code: 'invalid-json', crashesWorkers: true });
      expect(d.raw).toBe('not json at all');
      expect((await a.listDead(ZDeadListQuery.parse({ queue: w.queue }))).items.map((x) => [x.id, x.preview.kind])).toEqual([
        [bad, 'foreign'],
      ]);
      expect((await a.overview()).queues.find((q) => q.name === w.queue)).toMatchObject({ dead: 1, counts: { ready: 0 }, blockedBy: null });
      await expect(cliDeadList(w)).rejects.toThrow(/JSONDecodeError/);
      const r = await a.replayDead([bad]);
      expect(r.failed).toEqual([{ id: bad, outcome: 'invalid', message: expect.stringContaining("potatoq can't decode this payload") }]);
      expect(await a.getDead(bad)).not.toBeNull();
      expect(r.succeeded).toEqual([]);
      expect((await a.discardDead([bad])).succeeded.map((o) => o.id)).toEqual([bad]);
      expect(await cliDeadList(w)).toEqual([]);
    } finally {
      await worker.stop();
      await a.close();
      await seeder.close();
      await dropWorld(c, w);
      c.disconnect();
    }
  }, 180_000);
});
