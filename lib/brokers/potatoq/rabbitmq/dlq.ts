import 'server-only';
import type { ConfirmChannel, Message, Options } from 'amqplib';
import { ConsoleError } from '@/lib/brokers/errors';
import type { AmqpLink } from './connection';
import { dlqOf } from './topology';

/**
 * One browse of a `<queue>.dlq` at a time: a second browser would see the queue without the
 * letters the first one holds (and report them missing). In this process a queue of waiters,
 * keyed by server and vhost so two adapters on the same broker share it; across processes
 * (several console instances) an exclusive queue on the broker (withBrokerLock).
 */
const locks = new Map<string, Promise<void>>();

async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const chained = prev.then(() => mine);
  locks.set(key, chained);
  await prev;
  try {
    return await fn();
  } finally {
    release();
    if (locks.get(key) === chained) locks.delete(key);
  }
}

/** The queue whose exclusive declaration marks "a console is browsing this DLQ". */
export const browseLockQueue = (dlq: string) => `potatoq-console.browsing.${dlq}`;

/** Why a browse is refused while another console browses the same DLQ. */
export const browsingElsewhere = (dlq: string) =>
  `another console is browsing ${dlq} right now (RabbitMQ shows a message only by taking it, so two browses would each see the queue without the other's letters); try again in a moment`;

/**
 * The cross-process half of the browse lock: an exclusive queue, which RabbitMQ lets only one
 * connection declare (others get 405 RESOURCE_LOCKED) and deletes by itself when that
 * connection closes, so a console that dies mid-browse never leaves it locked. A user without
 * the configure permission can't declare it: the browse then runs with the in-process lock only.
 */
async function withBrokerLock<T>(link: AmqpLink, dlq: string, fn: () => Promise<T>): Promise<T> {
  const name = browseLockQueue(dlq);
  let held = false;
  try {
    await link.withChannel((ch) => ch.assertQueue(name, { exclusive: true, durable: false, autoDelete: false }));
    held = true;
  } catch (e) {
    const code = (e as { code?: unknown })?.code;
    if (code === 405) throw new ConsoleError('Conflict', browsingElsewhere(dlq));
    if (code !== 403) throw e;
  }
  try {
    return await fn();
  } finally {
    if (held) await link.withChannel((ch) => ch.deleteQueue(name)).catch(() => undefined);
  }
}

/** Both halves of the browse lock on one DLQ (in-process waiters, then the broker's exclusive queue). */
export const withDlqLock = <T>(link: AmqpLink, lockKey: string, dlq: string, fn: () => Promise<T>): Promise<T> =>
  withLock(`${lockKey}|${dlq}`, () => withBrokerLock(link, dlq, fn));

export interface Held {
  msg: Message;
  queue: string;
  /** Set once the message has been acked (replayed or discarded). */
  settled: boolean;
  /** How to ack it when not one by one (the redrive coalesces acks); false if the channel is gone. */
  ack?: () => boolean;
}

/**
 * Takes up to `limit` messages from `<queue>.dlq` with `basic.get` (no auto-ack), lets `visit`
 * settle some of them, then returns every other one with `basic.nack(requeue)`, one by one,
 * before the channel closes. Only ever called on RabbitMQ 4.x, where a requeue keeps the
 * letter and its position (3.x drops it: potatoq declares DLQs with x-delivery-limit -1).
 * If the console or the broker dies meanwhile, the channel's unacked messages go back to
 * the DLQ: nothing is lost.
 */
export async function browseDlq<T>(
  link: AmqpLink,
  lockKey: string,
  queue: string,
  limit: number,
  visit: (held: Held[], ch: ConfirmChannel) => Promise<T>,
  onEach?: (h: Held, ch: ConfirmChannel) => Promise<boolean>,
): Promise<T> {
  return browseNamed(link, lockKey, dlqOf(queue), queue, limit, visit, onEach);
}

/** `browseDlq` on a queue named as it is (another system's dead-letter queue); `queue` labels the letters. */
export async function browseNamed<T>(
  link: AmqpLink,
  lockKey: string,
  dlq: string,
  queue: string,
  limit: number,
  visit: (held: Held[], ch: ConfirmChannel) => Promise<T>,
  onEach?: (h: Held, ch: ConfirmChannel) => Promise<boolean>,
): Promise<T> {
  return withDlqLock(link, lockKey, dlq, () =>
    link.withConfirmChannel(async (ch) => {
      const held: Held[] = [];
      let holding = 0; // letters only `onEach` can settle, and only the one it is given
      try {
        while (holding < limit) {
          const m = await ch.get(dlq, { noAck: false });
          if (m === false) break;
          const h: Held = { msg: m, queue, settled: false };
          held.push(h);
          const stop = onEach ? await onEach(h, ch) : false;
          if (!h.settled) holding++;
          if (stop) break;
        }
        return await visit(held, ch);
      } finally {
        // On a closed channel the broker has already returned them (nack would throw).
        for (const h of held) {
          if (h.settled) continue;
          try {
            ch.nack(h.msg, false, true);
          } catch {
            break;
          }
        }
      }
    }),
  );
}

/** potatoq's `properties(message)`: what every potatoq publish carries. */
export function potatoqProperties(id: string, priority: number): Options.Publish {
  return {
    contentType: 'application/json',
    contentEncoding: 'utf-8',
    deliveryMode: 2,
    messageId: id,
    // Quorum queues treat "no priority" as 4; potatoq always sets it.
    priority: Math.max(0, Math.min(31, Math.trunc(priority))),
    headers: {},
    mandatory: true,
  };
}

/**
 * Publishes one message with `mandatory` on a confirm channel and waits for its own confirm.
 * RabbitMQ sends `basic.return` before the confirm of an unroutable message, so a return seen
 * before the confirm is this message's (publishes are awaited one at a time).
 */
export async function publishConfirmed(
  ch: ConfirmChannel,
  exchange: string,
  routingKey: string,
  body: Buffer,
  props: Options.Publish,
): Promise<'ok' | 'unroutable'> {
  let returned = false;
  const onReturn = (m: { properties: { messageId?: unknown } }) => {
    if (m.properties.messageId === props.messageId) returned = true;
  };
  ch.on('return', onReturn);
  try {
    await new Promise<void>((resolve, reject) => {
      ch.publish(exchange, routingKey, body, props, (err) =>
        err ? reject(new ConsoleError('BrokerUnavailable', 'RabbitMQ refused the message (nack)')) : resolve(),
      );
    });
  } finally {
    ch.off('return', onReturn);
  }
  return returned ? 'unroutable' : 'ok';
}
