// int-lane: owns rabbitmq (RabbitMQ as a whole, conservatively)
// Why the console keeps no index of a DLQ between reads (docs/performance.md, "The floor of the
// newest 100"): on the real RabbitMQ 4.3, a client that takes every letter, acks one from the
// middle and returns the rest in order, followed by one new dead letter, leaves the DLQ with the
// same depth and the same head letter, yet a letter is gone and a newer one is there. An index
// invalidated by depth and head would show the gone letter and miss the new one; the console's
// list, which reads every letter, shows the DLQ as it is. Non-destructive: its own queue.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import amqp from 'amqplib';
import { describe, expect, it } from 'vitest';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { newTag, rabbitAdapter, rabbitVersion, redisAvailable, REDIS_URL, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { peekIds, seedDlq } from '@/tests/support/rabbit-dlq-seed';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const v4 = (await redisAvailable()) && (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4));

/** Another client: takes all `n` letters of `dlq`, acks the one with id `gone`, returns the others in order. */
async function takeOneFromTheMiddle(dlq: string, n: number, gone: string): Promise<void> {
  const c = await amqp.connect(RMQ4_URL, { noDelay: true });
  try {
    const ch = await c.createChannel();
    await ch.prefetch(n);
    const got: amqp.ConsumeMessage[] = [];
    await new Promise<void>((resolve) => void ch.consume(dlq, (m) => m && got.push(m) === n && resolve(), { noAck: false }));
    ch.ack(got.find((m) => m.properties.messageId === gone)!);
    ch.nackAll(true);
    await ch.close();
  } finally {
    await c.close();
  }
}

describe.skipIf(!v4)('a DLQ whose depth and head did not change (RabbitMQ 4.3)', () => {
  it('can still have lost a letter and gained one: the newest list reads them all', async () => {
    const tag = newTag();
    const queue = `ix${tag}`;
    const dlq = `${queue}.dlq`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { queues: [queue] });
    try {
      await py.call('dead_letter_bulk', { queue, n: 0 });
      const ids = await seedDlq(RMQ4_URL, queue, 5);
      const before = await peekIds(RMQ4_URL, dlq);
      expect(before).toEqual(ids);

      await takeOneFromTheMiddle(dlq, 5, ids[2]!);
      const [added] = await seedDlq(RMQ4_URL, queue, 1); // dead-lettered after the return: at the tail

      const after = await peekIds(RMQ4_URL, dlq);
      expect(after).toHaveLength(before.length); // same depth
      expect(after[0]).toBe(before[0]); // same head
      expect(after).not.toContain(ids[2]);
      expect(after).toContain(added);

      const listed = (await a.listDead(ZDeadListQuery.parse({ limit: 100 }))).items.map((l) => l.id);
      expect(listed).toHaveLength(5);
      expect(listed).toContain(added);
      expect(listed).not.toContain(ids[2]);
      expect(listed[0]).toBe(added); // the newest first
    } finally {
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 60_000);
});
