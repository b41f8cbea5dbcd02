// Redis dying in the middle of a bulk replay of 10,000 letters (a private redis-server with
// AOF on a free port, killed with SIGKILL and started again on the same files): every letter
// ends either dead or ready exactly once, the outcomes say where the replay stopped, and
// replaying the rest resumes it.
// int-lane: isolated (only a redis-server of its own, on a free port)
import { afterAll, describe, expect, it } from 'vitest';
import { redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { replayDead, SCRIPT_BATCH } from '@/lib/brokers/potatoq/redis/writes';
import { PrivateRedis, redisServerAvailable } from '@/tests/support/redis';

const have = redisServerAvailable('the Redis fault suite');

describe.skipIf(!have)('Redis restarted in the middle of a bulk replay', () => {
  const server = new PrivateRedis();
  afterAll(() => server.stop());

  it('leaves every letter dead or ready exactly once, reports where it stopped, and resumes', async () => {
    const c = await server.start();
    const P = 'fault';
    const k = redisKeys(P);
    const ids = Array.from({ length: 10_000 }, (_, i) => `l${String(i).padStart(5, '0')}`);
    for (let i = 0; i < ids.length; i += 1000) {
      const pipe = c.pipeline();
      for (const id of ids.slice(i, i + 1000)) {
        pipe.hset(k.job(id), {
          q: 'a',
          p: JSON.stringify({ task: 't', id, queue: 'a', enqueued_at: 1.5, v: 1 }),
          pr: '0',
          d: '5',
          st: 'dead',
          r: 'x',
          died: '1',
        });
        pipe.zadd(k.dead, 1, id);
      }
      await pipe.exec();
    }
    // Kill the server once a few batches are in (a separate connection watches).
    const watcher = server.client();
    const killed = (async () => {
      while ((await watcher.zcard(k.ready('a'))) < 3 * SCRIPT_BATCH) await new Promise((r) => setTimeout(r, 1));
      // Hold the next script (CLIENT PAUSE holds EVALSHA), so the kill lands while one is in flight.
      await watcher.call('CLIENT', 'PAUSE', '10000', 'WRITE');
      await new Promise((r) => setTimeout(r, 100));
      await server.kill('SIGKILL');
    })();
    const first = await replayDead(c, P, ids);
    await killed;
    const stoppedAt = first.findIndex((o) => o.outcome !== 'ok');
    expect(stoppedAt).toBeGreaterThanOrEqual(3 * SCRIPT_BATCH);
    expect(stoppedAt).toBeLessThan(ids.length);
    // One batch failed in flight (it may have run); the rest were not attempted.
    expect(first.slice(stoppedAt, stoppedAt + SCRIPT_BATCH).every((o) => o.detail === 'error')).toBe(true);
    expect(first.slice(stoppedAt + SCRIPT_BATCH).every((o) => o.detail === 'not-attempted')).toBe(true);
    const c2 = await server.start();
    // What was reported done is durable; everything is in exactly one place.
    const check = async () => {
      const pipe = c2.pipeline();
      for (const id of ids) pipe.hget(k.job(id), 'st').zscore(k.dead, id).zscore(k.ready('a'), id);
      const r = (await pipe.exec()) ?? [];
      return ids.map((id, i) => {
        const [st, dead, ready] = [r[3 * i]?.[1], r[3 * i + 1]?.[1], r[3 * i + 2]?.[1]];
        if (st === 'dead' && dead !== null && ready === null) return 'dead';
        if (st === 'ready' && dead === null && ready !== null) return 'ready';
        return `broken:${id}:${String(st)}:${String(dead)}:${String(ready)}`;
      });
    };
    const after = await check();
    expect(after.filter((s) => s.startsWith('broken'))).toEqual([]);
    expect(first.filter((o) => o.outcome === 'ok').every((o) => after[ids.indexOf(o.id)] === 'ready')).toBe(true);
    // Resume with what was not reported done: already-replayed ones say so, the rest are replayed.
    const rest = first.filter((o) => o.outcome !== 'ok').map((o) => o.id);
    const second = await replayDead(c2, P, rest);
    expect(second.filter((o) => o.outcome !== 'ok' && o.detail !== 'not-dead:ready')).toEqual([]);
    expect(await check()).toEqual(ids.map(() => 'ready'));
    expect(await c2.zcard(k.ready('a'))).toBe(10_000);
    expect(await c2.zcard(k.dead)).toBe(0);
  });
});
