// The one-pass redrive (replayDeadPaced) on the real RabbitMQ 4.3 (5673, its own queue): a
// filtered part of a DLQ is replayed, the letters not asked for stay in the DLQ in their order,
// nothing is lost or duplicated, and the browse lock is taken. Non-destructive: no restart.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import amqp from 'amqplib';
import { describe, expect, it } from 'vitest';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { browseLockQueue } from '@/lib/brokers/potatoq/rabbitmq/dlq';
import { newTag, rabbitAdapter, rabbitVersion, redisAvailable, REDIS_URL, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { peekIds, seedDlq } from '@/tests/support/rabbit-dlq-seed';

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
      expect(r.failed.every((o) => o.outcome === 'error' && /another console is browsing/.test(o.message))).toBe(true);
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
