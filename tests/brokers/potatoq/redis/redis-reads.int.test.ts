// The console's reads against a real Redis: keyset pages in claim order at any depth,
// newest-first dead letters, the overview's counts and oldest waiting age, results, workers.
// int-lane: uses redis/0 (a key prefix of its own; counts on a redis-server of its own)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { PRIO, redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { deadGroups } from '@/lib/brokers/potatoq/redis/dto-overview';
import {
  listDead,
  listResults,
  listTasks,
  readOverview,
  readTask,
  readWorkers,
  registeredTaskNames,
} from '@/lib/brokers/potatoq/redis/reads';
import type { TaskRow } from '@/lib/brokers/potatoq/redis/rows';
import { connectRedis } from '@/lib/transports/redis/server';
import { dropPrefix, newPrefix, PrivateRedis, redisAvailable, testClient } from '@/tests/support/redis';

const up = await redisAvailable();
const msg = (id: string, enq: number, q = 'a') => JSON.stringify({ task: 't', id, queue: q, enqueued_at: enq, v: 1 });

describe.skipIf(!up)('Redis: the console reads', () => {
  let c: Redis;
  let P = '';
  let k: ReturnType<typeof redisKeys>;
  beforeAll(async () => {
    c = testClient();
    await c.connect();
  });
  afterAll(() => c?.disconnect());
  afterEach(async () => {
    if (P) await dropPrefix(c, P);
  });
  const fresh = () => {
    P = newPrefix();
    k = redisKeys(P);
  };

  async function walk(
    fetch: (cursor: string | null) => Promise<{ items: TaskRow[]; nextCursor: string | null }>,
    between?: (page: number) => Promise<void>,
  ) {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const r = await fetch(cursor);
      seen.push(...r.items.map((i) => i.id));
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
      await between?.(page);
    }
    return seen;
  }

  it('pages ready tasks in claim order (priority, then FIFO, front-pushed ties by member) without skipping or repeating', async () => {
    fresh();
    const pipe = c.pipeline();
    let seq = 0;
    for (let i = 0; i < 60; i++) {
      const id = `t${String(i).padStart(3, '0')}`;
      const prio = i % 3;
      // every 7th was requeued to the front of its band (score = -prio·2^40, no seq): ties
      const score = i % 7 === 0 ? -prio * PRIO : -prio * PRIO + ++seq;
      pipe.hset(k.job(id), { q: 'a', p: msg(id, 1000 + i), pr: String(prio), d: '0', st: 'ready' }).zadd(k.ready('a'), score, id);
    }
    await pipe.exec();
    const claimOrder = await c.zrange(k.ready('a'), 0, '-1');
    expect(await walk((cur) => listTasks(c, P, 'a', 'ready', 4, cur))).toEqual(claimOrder);
    // While paging, workers claim from the head and the cursor's own task vanishes: still no repeat, no skip of what remains.
    const removed = new Set<string>();
    const seen = await walk(
      (cur) => listTasks(c, P, 'a', 'ready', 5, cur),
      async () => {
        const [id] = await c.zpopmin(k.ready('a'));
        if (id) removed.add(id);
      },
    );
    expect(new Set(seen).size).toBe(seen.length);
    expect(claimOrder.filter((id) => !seen.includes(id)).every((id) => removed.has(id))).toBe(true);
  });

  it('resumes after a cursor whose task left the set while others tie with it', async () => {
    fresh();
    for (const id of ['a1', 'a2', 'a3', 'a4', 'a5']) await c.zadd(k.ready('a'), 0, id);
    const p1 = await listTasks(c, P, 'a', 'ready', 2, null);
    expect(p1.items.map((i) => i.id)).toEqual(['a1', 'a2']);
    await c.zrem(k.ready('a'), 'a2');
    const p2 = await listTasks(c, P, 'a', 'ready', 2, p1.nextCursor);
    expect(p2.items.map((i) => i.id)).toEqual(['a3', 'a4']);
    expect(p2.items[0]?.state).toBe('missing'); // members without a hash are shown as such
  });

  it('lists dead letters newest first with full reasons, running with lease state, scheduled by due time', async () => {
    fresh();
    const [t] = await c.time();
    const now = Number(t) * 1000;
    for (let i = 0; i < 5; i++) {
      await c.hset(k.job(`d${i}`), {
        q: 'a',
        p: msg(`d${i}`, 1),
        pr: '0',
        d: '1',
        st: 'dead',
        r: `Traceback\nValueError: ${i}\n`,
        died: String(1000 + i),
      });
      await c.zadd(k.dead, 1000 + i, `d${i}`);
    }
    await c.hset(k.job('bad'), { q: 'b', p: '{oops', pr: '0', d: '2', st: 'dead', r: 'worker lost too many times', died: '2000' });
    await c.zadd(k.dead, 2000, 'bad');
    const dead = await walk((cur) => listDead(c, P, 2, cur));
    expect(dead).toEqual(['bad', 'd4', 'd3', 'd2', 'd1', 'd0']);
    const first = (await listDead(c, P, 2, null)).items;
    expect(first[0]).toMatchObject({ id: 'bad', reason: 'worker lost too many times', diedAtMs: 2000, task: null });
    expect(first[0]?.problem?.kind).toBe('invalid-json');
    expect(first[1]).toMatchObject({ reason: 'Traceback\nValueError: 4\n', task: 't', problem: null });
    await c.hset(k.job('run1'), { q: 'a', p: msg('run1', 1), pr: '0', d: '1', st: 'active', tok: 'x', w: 'potatoq@h:1:abc', pid: '42' });
    await c.zadd(k.active('a'), now - 5000, 'run1');
    await c.hset(k.job('run2'), { q: 'a', p: msg('run2', 1), pr: '0', d: '1', st: 'active', tok: 'y', w: 'potatoq@h:1:abc', pid: '43' });
    await c.zadd(k.active('a'), now + 60_000, 'run2');
    const running = (await listTasks(c, P, 'a', 'active', 10, null)).items;
    expect(running.map((r) => [r.id, r.leaseExpired, r.worker, r.pid])).toEqual([
      ['run1', true, 'potatoq@h:1:abc', '42'],
      ['run2', false, 'potatoq@h:1:abc', '43'],
    ]);
    for (const [id, due] of [
      ['s2', now + 2000],
      ['s1', now + 1000],
    ] as const) {
      await c.hset(k.job(id), { q: 'a', p: msg(id, 1), pr: '0', d: '0', st: 'delayed' });
      await c.zadd(k.delayed('a'), due, id);
    }
    expect((await listTasks(c, P, 'a', 'delayed', 10, null)).items.map((r) => [r.id, r.atMs])).toEqual([
      ['s1', now + 1000],
      ['s2', now + 2000],
    ]);
    const o = await readOverview(c, P);
    expect(o.deadTotal).toBe(6);
    expect(o.deadExact).toBe(true);
    await c.hset(k.job('d9'), { q: 'a', p: msg('d9', 1), pr: '0', d: '1', st: 'dead', r: 'Traceback\nValueError: 4\n', died: '1' });
    await c.zadd(k.dead, 1, 'd9');
    // Grouped by fingerprint: the six `ValueError: <n>` letters (d9 included) are one group. The
    // seeded reason's bare "Traceback" line is no Python traceback header, so it stays in the text.
    const g = await deadGroups(c, P, {});
    expect(g.scope).toMatchObject({ grouped: 7, complete: true });
    expect(g.groups.map((x) => [x.pattern, x.count, x.queues, x.example.id])).toEqual([
      ['Traceback ValueError: <n>', 6, ['a'], 'd4'],
      ['worker lost too many times', 1, ['b'], 'bad'],
    ]);
    expect((await deadGroups(c, P, { queue: 'b' })).groups.map((x) => [x.pattern, x.count])).toEqual([['worker lost too many times', 1]]);
  });

  it('counts every queue and finds the oldest waiting task across priority bands', async () => {
    fresh();
    const [t] = await c.time();
    const nowS = Number(t);
    await c.sadd(k.queues, 'a', 'b', 'empty');
    // queue a: the next task to be claimed (priority 5) is young; the oldest waits in band 0
    await c.hset(k.job('hi'), { q: 'a', p: msg('hi', nowS - 10), pr: '5', d: '0', st: 'ready' });
    await c.zadd(k.ready('a'), -5 * PRIO + 9, 'hi');
    await c.hset(k.job('lo'), { q: 'a', p: msg('lo', nowS - 300), pr: '0', d: '0', st: 'ready' });
    await c.zadd(k.ready('a'), 3, 'lo');
    await c.hset(k.job('dd'), { q: 'b', p: msg('dd', 1, 'b'), pr: '0', d: '1', st: 'dead', r: 'x', died: '5' });
    await c.zadd(k.dead, 5, 'dd');
    await c.zadd(k.dead, 6, 'orphan');
    await c.zadd(k.active('b'), 1, 'gone');
    const o = await readOverview(c, P);
    const a = o.queues.find((q) => q.name === 'a')!;
    expect(a).toMatchObject({ ready: 2, scheduled: 0, running: 0, dead: 0, oldestApproximate: false });
    expect(a.oldestWaitingSeconds).toBeGreaterThan(295);
    expect(a.oldestWaitingSeconds).toBeLessThan(310);
    expect(o.queues.find((q) => q.name === 'b')).toMatchObject({
      ready: 0,
      running: 1,
      expiredLeases: 1,
      dead: 1,
      oldestWaitingSeconds: null,
    });
    expect(o.queues.map((q) => q.name)).toEqual(['a', 'b', 'empty']);
    expect(o.deadOrphans).toBe(1);
    // The next claim (what the overview checks for a task potatoq can't decode) is band 5's head.
    expect(a.head).toEqual({ id: 'hi', payload: msg('hi', nowS - 10) });
    expect(o.queues.find((q) => q.name === 'b')?.head).toBeNull();
  });

  it('counts dead letters per queue the same for a user who may not run scripts (ACL without EVALSHA)', async () => {
    const server = new PrivateRedis(['--appendonly', 'no']);
    const admin = await server.start();
    try {
      await admin.acl('SETUSER', 'reader', 'on', '>pw', '~*', '+@read', '+@connection', '+time', '+info', '-@scripting');
      const k0 = redisKeys('pq');
      await admin.sadd(k0.queues, 'a', 'b');
      for (const [id, q, died] of [
        ['d1', 'a', 1],
        ['d2', 'a', 2],
        ['d3', 'b', 3],
        ['d4', 'a', 4],
      ] as const) {
        await admin.hset(k0.job(id), { q, p: msg(id, 1, q), pr: '0', d: '1', st: 'dead', r: 'x', died: String(died) });
        await admin.zadd(k0.dead, died, id);
      }
      await admin.zadd(k0.dead, 5, 'orphan');
      const reader = connectRedis(server.url.replace('redis://', 'redis://reader:pw@'), 5000);
      try {
        await expect(reader.eval('return 1', 0)).rejects.toThrow(/NOPERM/);
        const [viaScript, viaHget] = [await readOverview(admin, 'pq'), await readOverview(reader, 'pq')];
        const counts = (o: typeof viaScript) => [o.queues.map((q) => [q.name, q.dead]), o.deadOrphans, o.deadTotal];
        expect(counts(viaScript)).toEqual([
          [
            ['a', 3],
            ['b', 1],
          ],
          1,
          5,
        ]);
        expect(counts(viaHget)).toEqual(counts(viaScript));
        // Pages read the same without scripts: their one-round-trip script falls back to ZRANGE
        // and pipelined HMGETs, and a cursor continues either way.
        const pages = async (r: typeof admin) => {
          const p1 = await listDead(r, 'pq', 2, null);
          const p2 = await listDead(r, 'pq', 2, p1.nextCursor);
          return [p1.items.map((x) => [x.id, x.state, x.queue]), p2.items.map((x) => x.id), p2.nextCursor !== null];
        };
        expect(await pages(admin)).toEqual([
          [
            ['orphan', 'missing', null],
            ['d4', 'dead', 'a'],
          ],
          ['d3', 'd2'],
          true,
        ]);
        expect(await pages(reader)).toEqual(await pages(admin));
      } finally {
        reader.disconnect();
      }
    } finally {
      await server.stop();
    }
  });

  it('reads one task, results by SCAN (internal records skipped), workers and registered names', async () => {
    fresh();
    await c.hset(k.job('x'), { q: 'a', p: msg('x', 1), pr: '0', d: '0', st: 'ready' });
    await c.zadd(k.ready('a'), 7, 'x');
    await c.set(k.result('x'), '{"task_id":"x","status":"FAILURE","result":NaN,"name":"t"}', 'PX', 60_000);
    await c.set(k.result('y'), '{"task_id":"y","status":"SUCCESS","result":1,"name":"t","date_done":5.5}');
    await c.set(k.result('potatoq-registered-abc'), '{"task_id":"potatoq-registered-abc","status":"SUCCESS","result":["rt.a","rt.b"]}');
    await c.set(k.result('group:g'), '{"status":"SUCCESS"}');
    await c.hset(
      k.workers,
      'potatoq@h:9:aaaaaa',
      JSON.stringify({
        hostname: 'potatoq@h',
        pid: 9,
        queues: ['a'],
        concurrency: 2,
        threads: 1,
        running: ['x'],
        registered: 'abc',
        heartbeat: Date.now() / 1000,
      }),
    );
    await c.hset(k.workers, 'broken', 'nope');
    const d = await readTask(c, P, 'x');
    expect(d).toMatchObject({ state: 'ready', score: '7', result: { status: 'FAILURE', problem: null } });
    expect(d?.payload?.kind).toBe('potatoq');
    expect(await readTask(c, P, 'none')).toBeNull();
    const all: string[] = [];
    let cur: string | null = null;
    do {
      const r = await listResults(c, P, 1, cur);
      all.push(...r.items.map((i) => i.id));
      cur = r.nextCursor;
    } while (cur);
    expect(all.sort()).toEqual(['x', 'y']);
    const w = await readWorkers(c, P);
    expect(w.map((x) => [x.id, x.registered, x.stale, x.problem === null])).toEqual([
      ['broken', null, true, false],
      ['potatoq@h:9:aaaaaa', ['rt.a', 'rt.b'], false, true],
    ]);
    expect(await registeredTaskNames(c, P)).toEqual(['rt.a', 'rt.b']);
  });
});
