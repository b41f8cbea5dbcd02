// Round trips with the REAL potatoq 26.1a8 (its producer, worker and CLI) on a real Redis:
// what potatoq writes the console reads; what the console writes potatoq runs; and the
// console agrees with `potatoq dead list --json` after each action.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import { redisKeys } from './keys';
import { listDead, listResults, listTasks, readTask } from './reads';
import { discardDead, enqueueTasks, replayDead, revokedRecord, revokeTasks } from './writes';
import {
  cliDeadList,
  dropWorld,
  newWorld,
  potatoqCli,
  redisAvailable,
  runs,
  spawnRedisSeeder,
  testClient,
  until,
  Worker,
  type World,
} from '@/tests/support/redis';

const up = await redisAvailable();

describe.skipIf(!up)('Redis round trips with the real potatoq 26.1a8', () => {
  let c: Redis;
  let w: World;
  let seeder: PySeeder;
  let worker: Worker;
  let k: ReturnType<typeof redisKeys>;
  const ids: Record<string, string> = {};
  const state = async (id: string) => (await c.hget(k.job(id), 'st')) ?? 'gone';

  /** The console's dead letters and potatoq's own `dead list --json` must say the same. */
  async function expectDeadListsAgree() {
    const cli = await cliDeadList(w);
    const ours = (await listDead(c, w.prefix, 1000, null)).items.filter((r) => r.state !== 'missing');
    expect(ours.map((r) => [r.id, r.queue, r.task, r.reason, (r.diedAtMs ?? 0) / 1000])).toEqual(
      cli.map((e) => [e.id, e.queue, e.task, e.reason, e.died_at]),
    );
    return cli;
  }

  beforeAll(async () => {
    w = newWorld();
    k = redisKeys(w.prefix);
    c = testClient();
    await c.connect();
    seeder = spawnRedisSeeder(w);
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
    await worker?.stop();
    await seeder?.close();
    if (c) await dropWorld(c, w);
    c?.disconnect();
  });

  it('reads what potatoq wrote: a failure with its traceback, a rejection, an unregistered task, a scheduled task and a result', async () => {
    const dead = new Map((await listDead(c, w.prefix, 100, null)).items.map((r) => [r.id, r]));
    expect(dead.get(ids.fail!)?.reason).toMatch(/^Traceback \(most recent call last\):\n[\s\S]*ValueError: boom-rt\n$/);
    expect(dead.get(ids.fail!)).toMatchObject({ task: 'rt.fail', queue: w.queue, deliveries: 1, state: 'dead', problem: null });
    expect(dead.get(ids.reject!)?.reason).toBe('not today');
    // Not the contract's "Task '…' is not registered. Did you import …" (that text is the FAILURE record's traceback).
    expect(dead.get(ids.unknown!)?.reason).toBe('unregistered task rt.unknown');
    const later = (await listTasks(c, w.prefix, w.queue, 'delayed', 10, null)).items;
    expect(later.map((r) => r.id)).toEqual([ids.later]);
    expect(later[0]!.atMs! / 1000 - Date.now() / 1000).toBeGreaterThan(3500);
    const results = (await listResults(c, w.prefix, 100, null)).items;
    expect(results.find((r) => r.id === ids.ok)).toMatchObject({ status: 'SUCCESS', name: 'rt.record' });
    const detail = await readTask(c, w.prefix, ids.flaky!);
    expect(detail?.payload?.kind).toBe('potatoq');
    await expectDeadListsAgree();
  });

  it('enqueues what the real worker runs with Python types, scheduled ones not before they are due', async () => {
    const [now] = await enqueueTasks(c, w.prefix, [
      {
        task: 'rt.record',
        queue: w.queue,
        args: '[{"__potatoq__":"datetime","v":"2024-01-02T03:04:05+00:00"},{"__potatoq__":"decimal","v":"1.10"},1180591620717411303424,1.0]',
        kwargs: '{"u":{"__potatoq__":"uuid","v":"12345678-1234-5678-1234-567812345678"}}',
      },
    ]);
    const sent = Date.now() / 1000;
    const [soon] = await enqueueTasks(c, w.prefix, [{ task: 'rt.record', queue: w.queue, args: '["soon"]', countdown: 2 }]);
    expect(soon?.state).toBe('scheduled');
    const run = await until(
      "the worker to run the console's task",
      () => runs(w).get(now!.id),
      30_000,
      () => worker.log,
    );
    expect(run[0]!.types).toEqual(['datetime', 'Decimal', 'int', 'float']);
    expect(run[0]!.args[1]).toBe("Decimal('1.10')");
    expect(run[0]!.kwargs.u).toBe("UUID('12345678-1234-5678-1234-567812345678')");
    const later = await until(
      'the scheduled task to run',
      () => runs(w).get(soon!.id),
      30_000,
      () => worker.log,
    );
    expect(later[0]!.at).toBeGreaterThanOrEqual(sent + 1.9);
  });

  it('replays a dead letter that the worker then runs with its original types; potatoq agrees after each step', async () => {
    writeFileSync(path.join(w.out, 'flaky-ok'), '');
    const [o] = await replayDead(c, w.prefix, [ids.flaky!]);
    expect(o?.outcome).toBe('ok');
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
    expect((await replayDead(c, w.prefix, [ids.fail!]))[0]?.outcome).toBe('ok');
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
    const rejectedAt = (await listDead(c, w.prefix, 100, null)).items.find((r) => r.id === ids.reject)!.diedAtMs!;
    expect(await potatoqCli(w, ['dead', 'retry', ids.reject!])).toContain('requeued');
    await until(
      'the rejected task to die again',
      async () => ((await listDead(c, w.prefix, 100, null)).items.find((r) => r.id === ids.reject)?.diedAtMs ?? 0) > rejectedAt,
      30_000,
      () => worker.log,
    );
    await expectDeadListsAgree();
  });

  it("revokes waiting tasks so the worker never runs them, refuses dead letters, and cleans up potatoq revoke's orphans", async () => {
    const held = `${w.queue}-held`;
    const [r1, r2] = await enqueueTasks(c, w.prefix, [
      { task: 'rt.record', queue: held, args: '["revoked"]' },
      { task: 'rt.record', queue: held, args: '["revoked-later"]', countdown: 1 },
    ]);
    const out = await revokeTasks(c, w.prefix, [r1!.id, r2!.id, ids.unknown!]);
    expect(out.map((o) => o.detail)).toEqual(['ok', 'ok', 'dead']);
    const w2 = new Worker(w);
    w2.start([held]);
    try {
      const [marker] = await enqueueTasks(c, w.prefix, [{ task: 'rt.record', queue: held, args: '["after"]', countdown: 1.5 }]);
      await until(
        'the marker task to run after the revoked ones were due',
        () => runs(w).get(marker!.id),
        30_000,
        () => w2.log,
      );
    } finally {
      await w2.stop();
    }
    expect(runs(w).has(r1!.id) || runs(w).has(r2!.id)).toBe(false);
    expect(await seeder.call('result', { id: r1!.id })).toMatchObject({ state: 'REVOKED', name: null });
    expect((await cliDeadList(w)).map((e) => e.id)).toContain(ids.unknown);
    // The console's REVOKED record is byte for byte the one potatoq's own revoke stores (unknown id).
    await potatoqCli(w, ['revoke', 'cli-unknown-id']);
    const theirs = (await c.get(k.result('cli-unknown-id')))!;
    expect(revokedRecord('cli-unknown-id', (JSON.parse(theirs) as { date_done: number }).date_done)).toBe(theirs);
    expect(Math.abs((await c.pttl(k.result('cli-unknown-id'))) - (await c.pttl(k.result(r1!.id))))).toBeLessThan(30_000);
    // potatoq's own revoke of a dead letter deletes its hash and leaves the id in P:dead.
    await potatoqCli(w, ['revoke', ids.unknown!]);
    expect(await c.zscore(k.dead, ids.unknown!)).not.toBeNull();
    expect(await c.exists(k.job(ids.unknown!))).toBe(0);
    await expectDeadListsAgree();
    expect((await discardDead(c, w.prefix, [ids.unknown!]))[0]?.detail).toBe('orphan');
    expect(await c.zscore(k.dead, ids.unknown!)).toBeNull();
    // Discard: gone for potatoq too.
    expect((await discardDead(c, w.prefix, [ids.fail!]))[0]?.outcome).toBe('ok');
    expect((await expectDeadListsAgree()).map((e) => e.id)).not.toContain(ids.fail);
  });
});
