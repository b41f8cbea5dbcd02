// The console's own scripts against a real Redis: every per-id outcome, and the fence.
// Hashes here are written the way potatoq's script leaves them (docs/brokers/redis.md);
// redis-potatoq.int.test.ts does the same with the real potatoq.
// int-lane: uses redis/0 redis/7 (a key prefix per test)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { PRIO, redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { listDead, readTask } from '@/lib/brokers/potatoq/redis/reads';
import { SCRIPTS } from '@/lib/brokers/potatoq/redis/scripts';
import { runScript } from '@/lib/transports/redis/scripts';
import { checkServer } from '@/lib/transports/redis/server';
import { discardDead, enqueueTasks, purgeQueue, replayDead, revokeTasks } from '@/lib/brokers/potatoq/redis/writes';
import { dropPrefix, newPrefix, redisAvailable, testClient } from '@/tests/support/redis';

const up = await redisAvailable();
const msg = (id: string, q: string) => JSON.stringify({ task: 't', id, queue: q, enqueued_at: 1.5, v: 1 });

describe.skipIf(!up)('Redis: the console scripts', () => {
  let c: Redis;
  let P = '';
  let k: ReturnType<typeof redisKeys>;
  beforeAll(async () => {
    c = testClient();
    await c.connect();
  });
  afterAll(() => c?.disconnect());
  const fresh = () => {
    P = newPrefix();
    k = redisKeys(P);
  };
  afterEach(async () => {
    if (P) await dropPrefix(c, P);
  });

  async function dead(id: string, q = 'a', pr = 0) {
    await c.hset(k.job(id), { q, p: msg(id, q), pr: String(pr), d: '3', st: 'dead', r: 'Traceback…\nValueError: x\n', died: '1000' });
    await c.zadd(k.dead, 1000, id);
  }
  async function active(id: string, q = 'a') {
    await c.hset(k.job(id), { q, p: msg(id, q), pr: '0', d: '1', st: 'active', tok: 'abc', w: 'node', pid: '7' });
    await c.zadd(k.active(q), 99_999_999_999_999, id);
  }
  async function ready(id: string, q = 'a', score = 5) {
    await c.hset(k.job(id), { q, p: msg(id, q), pr: '0', d: '0', st: 'ready' });
    await c.zadd(k.ready(q), score, id);
  }

  it('is a standalone Redis 6.2+ the console accepts', async () => {
    const s = await checkServer(c);
    expect(s.refusal).toBeNull();
    expect(s.maxmemoryPolicy).not.toBeNull();
  });

  it('connects to the database the URL names (path or ?db=) and to valkey:// URLs', async () => {
    fresh();
    const { connectRedis } = await import('@/lib/transports/redis/server');
    const url = (await import('@/tests/support/redis')).REDIS_URL.replace(/\/\d*$/, '');
    const db7 = connectRedis(`${url}/7`);
    const q7 = connectRedis(`${url.replace(/^redis:/, 'valkey:')}/0?db=7`);
    try {
      await db7.set(`${P}:probe`, 'x', 'PX', 60_000);
      expect(await q7.get(`${P}:probe`)).toBe('x');
      expect(await c.get(`${P}:probe`)).toBeNull();
      await db7.del(`${P}:probe`);
    } finally {
      db7.disconnect();
      q7.disconnect();
    }
  });

  it('replays only dead letters: back of its priority band with a new seq, reason and result gone, marker armed', async () => {
    fresh();
    await dead('d1', 'a', 3);
    await c.set(k.result('d1'), '{"status":"FAILURE"}');
    await c.set(k.seq, '41');
    await active('run1');
    await ready('r1');
    const out = await replayDead(c, P, ['d1', 'run1', 'r1', 'nope', 'd1']);
    expect(out.map((o) => [o.id, o.outcome, o.detail])).toEqual([
      ['d1', 'ok', 'ok'],
      ['run1', 'running', 'running'],
      ['r1', 'missing', 'not-dead:ready'],
      ['nope', 'missing', 'missing'],
    ]);
    expect(await c.hgetall(k.job('d1'))).toEqual({ q: 'a', p: msg('d1', 'a'), pr: '3', d: '0', st: 'ready' });
    expect(Number(await c.zscore(k.ready('a'), 'd1'))).toBe(-3 * PRIO + 42);
    expect(await c.zscore(k.dead, 'd1')).toBeNull();
    expect(await c.exists(k.result('d1'))).toBe(0);
    expect(await c.zrange(k.marker('a'), 0, '-1')).toEqual(['0']);
    expect(await c.sismember(k.queues, 'a')).toBe(1);
    expect(await c.hget(k.job('run1'), 'tok')).toBe('abc');
  });

  it("drops a replayed letter's eta as the SQL brokers do, and keeps a letter whose payload changed since it was read", async () => {
    fresh();
    await dead('e1');
    const withEta = '{"task":"t","id":"e1","args":[1,12345678901234567890],"queue":"a","eta":1700000000.5,"enqueued_at":1.5,"v":1}';
    await c.hset(k.job('e1'), 'p', withEta);
    expect((await replayDead(c, P, ['e1']))[0]?.outcome).toBe('ok');
    const p = (await c.hget(k.job('e1'), 'p'))!;
    expect(p).not.toContain('"eta"');
    expect(p).toContain('12345678901234567890');
    // The script only swaps the payload it was computed from (a letter replayed and dead again meanwhile keeps its own).
    await dead('e2');
    const codes = await runScript(c, SCRIPTS.replay, [P, 'e2', 'not-the-sha1-of-its-payload', '{"task":"t","id":"e2"}']);
    expect(codes).toEqual(['changed']);
    expect(await c.hget(k.job('e2'), 'st')).toBe('dead');
    expect(await c.hget(k.job('e2'), 'p')).toBe(msg('e2', 'a'));
  });

  it('keeps an undecodable dead letter instead of putting the poison back on the queue', async () => {
    fresh();
    await dead('bad');
    await c.hset(k.job('bad'), 'p', 'not json at all');
    await dead('bytes');
    await c.hset(k.job('bytes'), 'p', Buffer.from([0x7b, 0xff, 0x7d])); // invalid UTF-8: Python's loads raises on it
    const [o, b] = await replayDead(c, P, ['bad', 'bytes']);
    expect(o).toMatchObject({ outcome: 'invalid', detail: 'undecodable' });
    expect(b).toMatchObject({ outcome: 'invalid', detail: 'undecodable' });
    const rows = (await listDead(c, P, 10, null)).items;
    expect(rows.map((r) => r.problem?.kind).sort()).toEqual(['invalid-json', 'invalid-utf8']);
    expect((await readTask(c, P, 'bytes'))?.payload).toMatchObject({ kind: 'foreign', foreign: 'invalid-utf8' });
    expect(await c.hget(k.job('bad'), 'st')).toBe('dead');
    expect((await replayDead(c, P, ['bad'], { allowUndecodable: true }))[0]?.outcome).toBe('ok');
  });

  it('discards dead letters and orphaned P:dead entries, nothing else', async () => {
    fresh();
    await dead('d1');
    await c.zadd(k.dead, 5, 'orphan');
    await active('run1');
    await ready('r1');
    const out = await discardDead(c, P, ['d1', 'orphan', 'run1', 'r1', 'nope']);
    expect(out.map((o) => [o.outcome, o.detail])).toEqual([
      ['ok', 'ok'],
      ['ok', 'orphan'],
      ['running', 'running'],
      ['missing', 'not-dead:ready'],
      ['missing', 'missing'],
    ]);
    expect(await c.zcard(k.dead)).toBe(0);
    expect(await c.exists(k.job('d1'), k.job('run1'), k.job('r1'))).toBe(2);
  });

  it('revokes waiting tasks with a REVOKED record, and never touches running tasks, dead letters or finished results', async () => {
    fresh();
    await ready('r1');
    await c.hset(k.job('s1'), { q: 'a', p: msg('s1', 'a'), pr: '0', d: '0', st: 'delayed' });
    await c.zadd(k.delayed('a'), 123, 's1');
    await active('run1');
    await dead('d1');
    await c.set(k.result('done'), '{"task_id":"done","status":"SUCCESS","result":1}');
    await c.zadd(k.dead, 5, 'orphan');
    await c.set(k.waiting('r1'), '1');
    const out = await revokeTasks(c, P, ['r1', 's1', 'run1', 'd1', 'done', 'orphan', 'unknown'], 100);
    expect(out.map((o) => [o.id, o.outcome, o.detail])).toEqual([
      ['r1', 'ok', 'ok'],
      ['s1', 'ok', 'ok'],
      ['run1', 'running', 'running'],
      ['d1', 'conflict', 'dead'],
      ['done', 'missing', 'finished:SUCCESS'],
      ['orphan', 'ok', 'orphan'],
      ['unknown', 'ok', 'unknown'],
    ]);
    expect(await c.exists(k.job('r1'), k.job('s1'))).toBe(0);
    expect(await c.zcard(k.ready('a'))).toBe(0);
    expect(await c.zcard(k.delayed('a'))).toBe(0);
    expect(await c.hget(k.job('run1'), 'st')).toBe('active');
    expect(await c.exists(k.result('run1'))).toBe(0);
    expect(await c.hget(k.job('d1'), 'st')).toBe('dead');
    expect(await c.zscore(k.dead, 'd1')).toBe('1000');
    expect(await c.zscore(k.dead, 'orphan')).toBeNull();
    expect(JSON.parse((await c.get(k.result('done')))!).status).toBe('SUCCESS');
    const rec = JSON.parse((await c.get(k.result('unknown')))!) as Record<string, unknown>;
    expect(Object.keys(rec)).toEqual([
      'task_id',
      'status',
      'result',
      'traceback',
      'meta',
      'date_done',
      'name',
      'args',
      'kwargs',
      'retries',
      'worker',
      'date_started',
      'enqueued_at',
    ]);
    expect(rec).toMatchObject({ task_id: 'unknown', status: 'REVOKED', name: null, retries: 0 });
    const ttl = await c.pttl(k.result('r1'));
    expect(ttl).toBeGreaterThan(90_000);
    expect(ttl).toBeLessThanOrEqual(100_000);
    expect(await c.lrange(k.notify('r1'), 0, '-1')).toEqual(['1']);
  });

  it("purges only its queue's ready and scheduled tasks, in slices, stepping over what it must not touch", async () => {
    fresh();
    for (let i = 0; i < 25; i++) await ready(`r${String(i).padStart(2, '0')}`, 'a', i + 1);
    await c.hset(k.job('s1'), { q: 'a', p: msg('s1', 'a'), pr: '0', d: '0', st: 'delayed' });
    await c.zadd(k.delayed('a'), 123, 's1');
    await active('run1');
    await c.zadd(k.ready('a'), 0, 'run1'); // an inconsistent member: its hash is active
    await ready('other', 'b');
    await c.zadd(k.ready('a'), 0.5, 'other'); // a member whose hash belongs to queue b
    await c.zadd(k.ready('a'), 0.25, 'dangling'); // no hash (left by a potatoq purge race)
    const r = await purgeQueue(c, P, 'a', { slice: 4 });
    expect(r).toEqual({ queue: 'a', purged: 26, skipped: 2, stale: 1 });
    expect((await c.zrange(k.ready('a'), 0, '-1')).sort()).toEqual(['other', 'run1']);
    expect(await c.hget(k.job('run1'), 'tok')).toBe('abc');
    expect(await c.hget(k.job('other'), 'st')).toBe('ready');
    expect(await c.exists(k.job('r00'), k.job('s1'))).toBe(0);
  });

  it('enqueues like potatoq: ready at -priority·2^40 + seq with the marker, scheduled at Redis TIME + delay, never over an existing id', async () => {
    fresh();
    const [t] = await c.time();
    const out = await enqueueTasks(c, P, [
      { task: 'rt.record', queue: 'a', priority: 2, args: '[1]', id: 'e1' },
      { task: 'rt.record', queue: 'a', countdown: 60, id: 'e2' },
      { task: 'rt.record', queue: 'a', id: 'e1' },
    ]);
    expect(out.map((o) => [o.id, o.outcome, o.state])).toEqual([
      ['e1', 'ok', 'ready'],
      ['e2', 'ok', 'scheduled'],
      ['e1', 'conflict', 'ready'],
    ]);
    expect(await c.hgetall(k.job('e1'))).toEqual({ q: 'a', p: out[0]!.payload, pr: '2', d: '0', st: 'ready' });
    expect(Number(await c.zscore(k.ready('a'), 'e1'))).toBe(-2 * PRIO + 1);
    expect(await c.hget(k.job('e2'), 'st')).toBe('delayed');
    const due = Number(await c.zscore(k.delayed('a'), 'e2'));
    expect(due - Number(t) * 1000).toBeGreaterThan(58_000);
    expect(due - Number(t) * 1000).toBeLessThan(62_000);
    expect(await c.smembers(k.queues)).toEqual(['a']);
    expect(JSON.parse(out[1]!.payload).eta).toBeGreaterThan(Date.now() / 1000 + 50);
  });
});
