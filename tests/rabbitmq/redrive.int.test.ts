// The one-pass redrive (replayDeadPaced) on the real RabbitMQ 4.3 (5673, its own queue): a
// filtered part of a DLQ is replayed, the letters not asked for stay in the DLQ in their order,
// nothing is lost or duplicated, and the browse lock is taken. Non-destructive: no restart.
// int-lane: owns rabbitmq; uses redis/0 (RabbitMQ as a whole, conservatively; results under a per-run prefix)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import amqp from 'amqplib';
import { describe, expect, it } from 'vitest';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { AmqpLink } from '@/lib/transports/amqp/connection';
import { browseLockQueue } from '@/lib/transports/amqp/browse-lock';
import { newWalk, walkQueue } from '@/lib/transports/amqp/dlq-walk';
import { ackHeld } from '@/lib/transports/amqp/dlq';
import { parseAmqpUrl } from '@/lib/transports/amqp/url';
import { newTag, rabbitAdapter, rabbitVersion, redisAvailable, REDIS_URL, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { peekIds, seedDlq } from '@/tests/support/rabbit-dlq-seed';
import { ZDeadListQuery } from '@/lib/brokers/schema';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const v4 = (await redisAvailable()) && (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4));

describe.skipIf(!v4)('the one-pass redrive on RabbitMQ 4.3', () => {
  it('replays the asked-for letters once each and leaves the others in the DLQ in their order', async () => {
    const tag = newTag();
    const queue = `rd${tag}`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { queues: [queue] });
    try {
      await py.call('dead_letter_bulk', { queue, n: 0 });
      const ids = await seedDlq(RMQ4_URL, queue, 3000);
      const want = ids.filter((_, i) => i % 3 === 0);
      const stay = ids.filter((_, i) => i % 3 !== 0);
      let progress = 0;
      const r = await a.replayDeadPaced([...want, 'not-there'], { queue, onProgress: (d) => (progress = d) });
      expect(r.succeeded.map((o) => o.id).sort()).toEqual([...want].sort());
      expect(r.failed).toEqual([expect.objectContaining({ id: 'not-there', outcome: 'missing' })]);
      expect(progress).toBe(want.length);
      expect(await peekIds(RMQ4_URL, `${queue}.dlq`)).toEqual(stay);
      const queued = await peekIds(RMQ4_URL, queue);
      expect(queued).toHaveLength(want.length);
      expect(new Set(queued)).toEqual(new Set(want));
    } finally {
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 120_000);

  it('hands over to a new channel past a prefetch, coalesces the acks, and loses or repeats nothing', async () => {
    const tag = newTag();
    const queue = `rp${tag}`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { queues: [queue] });
    try {
      await py.call('dead_letter_bulk', { queue, n: 0 });
      const ids = await seedDlq(RMQ4_URL, queue, 1500);
      const want = ids.filter((_, i) => i % 3 === 0);
      const stay = ids.filter((_, i) => i % 3 !== 0);
      // 1,000 letters kept unacked with a prefetch of 200: five channels in turn, no basic.get.
      const r1 = await a.replayDeadPaced(want, { queue, prefetch: 200, window: 64 });
      expect(r1.failed).toEqual([]);
      expect(r1.succeeded).toHaveLength(want.length);
      expect(await peekIds(RMQ4_URL, `${queue}.dlq`)).toEqual(stay);
      // All of the rest: runs of settled letters at the front, acked with `multiple`.
      const r2 = await a.replayDeadPaced(stay, { queue, prefetch: 200 });
      expect(r2.failed).toEqual([]);
      expect(r2.succeeded).toHaveLength(stay.length);
      expect(await peekIds(RMQ4_URL, `${queue}.dlq`)).toEqual([]);
      const queued = await peekIds(RMQ4_URL, queue);
      expect(queued).toHaveLength(ids.length);
      expect(new Set(queued)).toEqual(new Set(ids));
    } finally {
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 120_000);

  it("keeps the DLQ's order after a filtered walk over many channels, each letter acked on its own", async () => {
    const tag = newTag();
    const queue = `rc${tag}`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const link = new AmqpLink(parseAmqpUrl(RMQ4_URL), 10_000);
    try {
      await py.call('dead_letter_bulk', { queue, n: 0 });
      const ids = await seedDlq(RMQ4_URL, queue, 3000);
      const want = ids.filter((_, i) => i % 3 === 0);
      const w = newWalk(want);
      const tags: number[] = [];
      // Every letter is decoded (no quick id), so every delivery tag is seen; the step removes
      // the wanted ones from the DLQ by acking them (an ack on another channel than the
      // letter's would be an unknown tag, which closes that channel and fails the walk).
      await walkQueue(
        {
          link,
          dlq: `${queue}.dlq`,
          decode: (m) => {
            tags.push(m.fields.deliveryTag);
            return { id: String(m.properties.messageId) };
          },
          step: async (l, held, ch) =>
            ackHeld(held, ch) ? { id: l.id, outcome: 'ok', message: 'acked' } : { id: l.id, outcome: 'error', message: 'not acked' },
        },
        w,
        { prefetch: 100, window: 32 },
      );
      expect([...w.outcomes.values()].filter((o) => o.outcome === 'ok')).toHaveLength(want.length);
      expect(w.inflight.size).toBe(0);
      // 2,000 kept at most 100 per channel: tags restart at 1 on each of at least 20 channels.
      expect(tags.filter((t) => t === 1).length).toBeGreaterThanOrEqual(20);
      expect(await peekIds(RMQ4_URL, `${queue}.dlq`)).toEqual(ids.filter((_, i) => i % 3 !== 0));
    } finally {
      await link.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 120_000);

  it('lists every matching id of a DLQ deeper than deadBrowseLimit in one pass, touching nothing', async () => {
    const tag = newTag();
    const queue = `rs${tag}`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { queues: [queue], deadBrowseLimit: 100 });
    try {
      await py.call('dead_letter_bulk', { queue, n: 0 });
      const ids = await seedDlq(RMQ4_URL, queue, 900);
      const all = await a.deadIds!({ queue }, 100_000);
      expect(all.capped).toBe(false);
      expect(all.ids).toEqual(ids); // newest first (potatoq-died descending), as the list orders them
      expect(await peekIds(RMQ4_URL, `${queue}.dlq`)).toEqual(ids); // every letter back, in its place
      expect(await a.deadIds!({ queue }, 50)).toEqual({ ids: ids.slice(0, 50), capped: true });
      // A text search decodes the body, and matches a third.
      const third = await a.deadIds!({ queue, q: 'ValueError: group 1' }, 100_000);
      expect(new Set(third.ids)).toEqual(new Set(ids.filter((_, i) => i % 3 === 1)));
      const byTask = await a.deadIds!({ queue, task: 'bench.redrive', id: ids[5]!.slice(0, 12) }, 100_000);
      expect(byTask.ids).toEqual([ids[5]]);
      const page = await a.listDead(ZDeadListQuery.parse({ queue, limit: 500 }));
      expect(page.items).toHaveLength(100); // the list's browse window
      const { groups, scope } = await a.deadGroups({ queue }); // "ValueError: group <n>", of the first 100 only
      expect(groups.map((g) => g.count)).toEqual([100]);
      expect(scope).toMatchObject({ grouped: 100, complete: false, note: expect.stringContaining(`${queue}.dlq holds 900 letters`) });
      // The group from the headers alone: all 900, not the list's 100.
      expect((await a.deadIds!({ queue, group: groups[0]!.fingerprint }, 100_000)).ids).toHaveLength(900);
      expect((await a.deadIds!({ queue, group: 'fp-0000000000000000' }, 100_000)).ids).toEqual([]);
      expect((await peekIds(RMQ4_URL, `${queue}.dlq`)).sort()).toEqual([...ids].sort());
    } finally {
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 120_000);

  it('refuses while another console holds the browse lock of the DLQ, and touches nothing', async () => {
    const tag = newTag();
    const queue = `rl${tag}`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { queues: [queue] });
    const other = await amqp.connect(RMQ4_URL);
    try {
      await py.call('dead_letter_bulk', { queue, n: 0 });
      const ids = await seedDlq(RMQ4_URL, queue, 20);
      const ch = await other.createChannel();
      await ch.assertQueue(browseLockQueue(`${queue}.dlq`), { exclusive: true, durable: false, autoDelete: false });
      const r = await a.replayDeadPaced(ids, { queue });
      expect(r.succeeded).toEqual([]);
      expect(r.failed.every((o) => o.outcome === 'error' && /another console.* has been browsing/.test(o.message))).toBe(true);
      expect(await peekIds(RMQ4_URL, `${queue}.dlq`)).toEqual(ids);
    } finally {
      await other.close();
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 60_000);

  it('opens a letter in a free DLQ while another DLQ is being browsed, and names the busy one otherwise', async () => {
    const tag = newTag();
    const [free, busy] = [`gf${tag}`, `gb${tag}`];
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { queues: [free, busy] });
    const other = await amqp.connect(RMQ4_URL);
    try {
      for (const q of [free, busy]) await py.call('dead_letter_bulk', { queue: q, n: 0 });
      const [inFree] = await seedDlq(RMQ4_URL, free, 1);
      const [inBusy] = await seedDlq(RMQ4_URL, busy, 1);
      const ch = await other.createChannel();
      await ch.assertQueue(browseLockQueue(`${busy}.dlq`), { exclusive: true, durable: false, autoDelete: false });
      expect((await a.getDead(inFree!))?.id).toBe(inFree);
      const refused = await a.getDead(inBusy!).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toMatchObject({ code: 'Conflict', message: expect.stringContaining(`${busy}.dlq`) });
      await other.close();
      expect((await a.getDead(inBusy!))?.id).toBe(inBusy);
      expect(await peekIds(RMQ4_URL, `${free}.dlq`)).toEqual([inFree]);
      expect(await peekIds(RMQ4_URL, `${busy}.dlq`)).toEqual([inBusy]);
    } finally {
      await other.close().catch(() => undefined);
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 60_000);
});
