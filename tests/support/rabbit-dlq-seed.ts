// Fills a potatoq DLQ fast: letters shaped as potatoq's consumer writes them (the message
// `potatoq call` would send, potatoq's properties, potatoq-reason/potatoq-died headers),
// published straight to `<queue>.dlq` with pipelined publisher confirms. The queue pair must
// exist already (the Python seeder's `dead_letter_bulk` with n 0 declares it potatoq's way).
import amqp from 'amqplib';
import { potatoqProperties } from '@/lib/brokers/potatoq/rabbitmq/dlq';
import { parsePotatoqEnqueue } from '@/lib/brokers/potatoq/enqueue-fields';
import { buildFromFields } from '@/lib/brokers/potatoq/records';

/** Publishes `n` letters (reason group i % groups) and returns their ids in DLQ order. */
export async function seedDlq(url: string, queue: string, n: number, groups = 3): Promise<string[]> {
  const c = await amqp.connect(url);
  const ids: string[] = [];
  try {
    const ch = await c.createConfirmChannel();
    const now = Date.now();
    for (let i = 0; i < n; i++) {
      const m = buildFromFields(parsePotatoqEnqueue({ task: 'bench.redrive', queue, fields: { args: [i] } }), now / 1000);
      const props = potatoqProperties(m.id, m.priority);
      props.headers = {
        'potatoq-reason': `Traceback (most recent call last):\nValueError: group ${i % groups}\n`,
        'potatoq-died': now - i,
      };
      ch.publish('', `${queue}.dlq`, Buffer.from(m.json, 'utf8'), props);
      ids.push(m.id);
      if (i % 2000 === 1999) await ch.waitForConfirms();
    }
    await ch.waitForConfirms();
    return ids;
  } finally {
    await c.close();
  }
}

/** The message ids a queue holds, in order, without removing them (get, then nack all). */
export async function peekIds(url: string, queue: string): Promise<string[]> {
  const c = await amqp.connect(url);
  try {
    const ch = await c.createChannel();
    const out: string[] = [];
    for (;;) {
      const m = await ch.get(queue, { noAck: false });
      if (m === false) break;
      out.push(String(m.properties.messageId));
    }
    ch.nackAll(true);
    await ch.close();
    return out;
  } finally {
    await c.close();
  }
}
