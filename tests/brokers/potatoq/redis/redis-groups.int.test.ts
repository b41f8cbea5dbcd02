// The error groups' scope on a real Redis: P:dead holds every queue's letters and a read groups
// the newest DEAD_SCAN of them, so past that the answer says how many of how many it grouped,
// and a queue's letters all older than that read are "none among the newest", not "no letters".
// int-lane: uses redis/0 (a key prefix of its own)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { dropPrefix, newPrefix, redisAvailable, REDIS_URL, testClient } from '@/tests/support/redis';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { DEAD_SCAN } from '@/lib/brokers/potatoq/redis/reads';

const up = await redisAvailable();
const DEEP = DEAD_SCAN + 5;

describe.skipIf(!up)('Redis: what the error groups cover', () => {
  let c: Redis;
  let a: BrokerAdapter;
  const P = newPrefix();
  const k = redisKeys(P);
  const letter = (pipe: ReturnType<Redis['pipeline']>, id: string, queue: string, diedMs: number, reason: string) =>
    pipe
      .hset(k.job(id), {
        q: queue,
        p: JSON.stringify({ task: 'g.t', id, queue, enqueued_at: 1, v: 1 }),
        pr: '0',
        d: '1',
        st: 'dead',
        r: `Traceback (most recent call last):\n${reason}\n`,
        died: String(diedMs / 1000),
      })
      .zadd(k.dead, diedMs, id);
  beforeAll(async () => {
    c = testClient();
    await c.connect();
    const pipe = c.pipeline();
    const now = Date.now();
    // The 3 letters of "old" died before every letter of "deep".
    for (let i = 0; i < 3; i++) letter(pipe, `o${i}`, 'old', now - 10 * DEEP * 1000 - i, 'KeyError: gone');
    for (let i = 0; i < DEEP; i++) letter(pipe, `d${i}`, 'deep', now - i, `ValueError: order ${i % 2}`);
    await pipe.exec();
    a = createRedisAdapter({ id: 'groups', name: 'groups', url: REDIS_URL, readOnly: true, options: { global_keyprefix: P } });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await dropPrefix(c, P);
    c?.disconnect();
  });

  it('groups the newest DEAD_SCAN letters of a deeper set and says how many of how many', async () => {
    const { groups, scope } = await a.deadGroups({});
    expect(groups.map((g) => [g.pattern, g.count])).toEqual([['ValueError: order <n>', DEAD_SCAN]]);
    expect(scope).toEqual({
      grouped: DEAD_SCAN,
      complete: false,
      note:
        `Grouped the newest 10,000 of 10,008 dead letters (a read takes the newest 10,000 of the dead-letter set): ` +
        "the 8 older ones are in no group's count.",
    });
  });

  it("a queue's letters older than that read: no groups, and the words say why rather than 'no letters'", async () => {
    expect(await a.deadGroups({ queue: 'old' })).toEqual({
      groups: [],
      scope: {
        grouped: 0,
        complete: false,
        note:
          'No letter of old is among the newest 10,000 of 10,008 dead letters of every queue ' +
          "(a read takes the newest 10,000 of the dead-letter set): its older letters are in no group's count.",
      },
    });
    expect((await a.deadGroups({ queue: 'deep' })).scope.note).toBe(
      'Grouped the 10,000 letters of deep found among the newest 10,000 of 10,008 dead letters of every queue ' +
        "(a read takes the newest 10,000 of the dead-letter set): its older letters are in no group's count.",
    );
  });

  it('says nothing once the set fits in one read', async () => {
    const extra = await c.zrevrange(k.dead, 0, DEEP - DEAD_SCAN + 3 - 1);
    await c.zrem(k.dead, ...extra);
    const { groups, scope } = await a.deadGroups({ queue: 'old' });
    expect([groups.map((g) => g.count), scope]).toEqual([[3], { grouped: 3, complete: true }]);
  });
});
