import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Channel, ConfirmChannel } from 'amqplib';
import { pyStr } from '@/lib/pyvalues/pyrepr';
import type { PyVal } from '@/lib/pyvalues/pyval';
import type { AmqpLink } from '@/lib/transports/amqp/connection';
import { isNotFound } from '@/lib/transports/amqp/connection';
import { originNode, isoUtc, type BuiltCeleryMessage, type SendTaskInput } from '../send-task';

// Celery 5.7 on RabbitMQ (py-amqp): the protocol 2 headers are AMQP message headers, the body
// is the raw JSON `[args, kwargs, embed]` (no base64 envelope), `correlation_id` is the task id.
// Remote control is kombu's pidbox: fanout exchange `celery.pidbox` (transient, not durable),
// replies through the direct exchange `reply.celery.pidbox` to `<oid>.reply.celery.pidbox`.

const PIDBOX = 'celery.pidbox';
const REPLY = 'reply.celery.pidbox';

/** An AMQP header value from a Python value (typed values as their `str()`). */
function plain(v: PyVal): unknown {
  switch (v.k) {
    case 'none':
      return null;
    case 'bool':
      return v.v;
    case 'int':
      return Number(v.text);
    case 'float':
      return v.v;
    case 'str':
      return v.v;
    case 'list':
    case 'set':
      return v.items.map(plain);
    case 'dict':
      return Object.fromEntries(v.entries.map(([k, x]) => [k, plain(x)]));
    default:
      return pyStr(v);
  }
}

/** The AMQP headers send_task writes, in its order, for the message `buildSendTask` built. */
export function amqpHeaders(m: SendTaskInput, built: BuiltCeleryMessage): Record<string, unknown> {
  const env = JSON.parse(built.json) as { headers: Record<string, unknown> };
  const h: Record<string, unknown> = { ...env.headers, origin: originNode() };
  if (m.etaMs !== null) h.eta = isoUtc(m.etaMs);
  for (const [k, v] of m.headers) h[k] = plain(v);
  return h;
}

/** send_task's `declare=[queue]` for a queue Celery creates on demand (`task_create_missing_queues`):
 *  a durable classic queue bound to a direct exchange of the same name. An existing queue is left as it is. */
async function declareLikeCelery(link: AmqpLink, queue: string): Promise<void> {
  const exists = await link.checkQueue(queue);
  if (exists) return;
  await link.withChannel(async (ch) => {
    await ch.assertExchange(queue, 'direct', { durable: true, autoDelete: false });
    await ch.assertQueue(queue, { durable: true, autoDelete: false });
    await ch.bindQueue(queue, queue, queue);
  });
}

/** Publishes one task message (publisher confirm), as send_task does: default exchange, routing key = queue. */
export async function publishTask(link: AmqpLink, m: SendTaskInput, built: BuiltCeleryMessage): Promise<void> {
  await declareLikeCelery(link, m.queue);
  await link.withConfirmChannel(async (ch: ConfirmChannel) => {
    ch.publish('', m.queue, Buffer.from(built.body, 'utf8'), {
      headers: amqpHeaders(m, built),
      correlationId: built.id,
      replyTo: randomUUID(),
      contentType: 'application/json',
      contentEncoding: 'utf-8',
      deliveryMode: 2,
      priority: m.priority,
    });
    await ch.waitForConfirms();
  });
}

async function declarePidbox(ch: Channel): Promise<void> {
  await ch.assertExchange(PIDBOX, 'fanout', { durable: false, autoDelete: false });
}

function controlOptions(expiresSec: number) {
  return { headers: { clock: 1, expires: expiresSec }, contentType: 'application/json', contentEncoding: 'utf-8', deliveryMode: 1 };
}

/** `celery control revoke <ids>`: one broadcast on the pidbox fanout exchange. */
export async function broadcastRevoke(link: AmqpLink, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const body = {
    method: 'revoke',
    arguments: { task_id: ids.length === 1 ? ids[0] : ids, terminate: false, signal: 'SIGTERM' },
    destination: null,
    pattern: null,
    matcher: null,
  };
  await link.withConfirmChannel(async (ch) => {
    await declarePidbox(ch);
    ch.publish(PIDBOX, '', Buffer.from(JSON.stringify(body)), controlOptions(Date.now() / 1000 + 1));
    await ch.waitForConfirms();
  });
}

/** `app.control.inspect().<method>()`: hostname -> reply, collected for `timeoutMs`. */
export async function inspect(link: AmqpLink, method: string, timeoutMs: number): Promise<Map<string, unknown>> {
  const oid = randomUUID();
  const ticket = randomUUID();
  const queue = `${oid}.${REPLY}`;
  const replies = new Map<string, unknown>();
  await link.withChannel(async (ch) => {
    await declarePidbox(ch);
    await ch.assertExchange(REPLY, 'direct', { durable: false, autoDelete: false });
    await ch.assertQueue(queue, { durable: false, autoDelete: true, arguments: { 'x-expires': 10_000, 'x-message-ttl': 10_000 } });
    await ch.bindQueue(queue, REPLY, oid);
    await ch.consume(
      queue,
      (msg) => {
        if (!msg || msg.properties.headers?.ticket !== ticket) return;
        try {
          for (const [host, v] of Object.entries(JSON.parse(msg.content.toString('utf8')) as Record<string, unknown>)) replies.set(host, v);
        } catch {
          // Not a reply we can read.
        }
      },
      { noAck: true },
    );
    const body = {
      method,
      arguments: {},
      destination: null,
      pattern: null,
      matcher: null,
      ticket,
      reply_to: { exchange: REPLY, routing_key: oid },
    };
    ch.publish(PIDBOX, '', Buffer.from(JSON.stringify(body)), controlOptions((Date.now() + timeoutMs) / 1000));
    await new Promise((r) => setTimeout(r, timeoutMs));
    await ch.deleteQueue(queue).catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
    });
  });
  return replies;
}

/** `queue.purge`: the queue's ready messages; unacknowledged (reserved) ones stay. */
export async function purgeQueue(link: AmqpLink, queue: string): Promise<number> {
  if (!(await link.checkQueue(queue))) return 0;
  return link.withChannel(async (ch) => (await ch.purgeQueue(queue)).messageCount);
}

/** Passive declares, one channel each: a queue that refuses it (exclusive to another connection,
 *  e.g. a console's browsing queue: RESOURCE_LOCKED) is left out rather than failing the whole
 *  overview; a queue that is gone is null. */
export async function checkQueues(link: AmqpLink, names: string[]): Promise<Map<string, { messages: number; consumers: number } | null>> {
  const out = new Map<string, { messages: number; consumers: number } | null>();
  for (const name of names) {
    try {
      const ok = await link.withChannel((ch) => ch.checkQueue(name));
      out.set(name, { messages: ok.messageCount, consumers: ok.consumerCount });
    } catch (e) {
      if (isNotFound(e)) out.set(name, null);
      else if (!/RESOURCE_LOCKED|ACCESS_REFUSED/.test(e instanceof Error ? e.message : String(e))) throw e;
    }
  }
  return out;
}
