import 'server-only';
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { AmqpLink } from '@/lib/transports/amqp/connection';
import { browseNamed, type Held } from '@/lib/transports/amqp/dlq';
import { readQueue } from '@/lib/transports/amqp/dlq-read';
import { dlqOf } from './topology';

// potatoq's dead-letter queues (`<queue>.dlq`) and publish properties on the shared AMQP blocks
// (lib/transports/amqp): the browse, the shared read and the walk know no queue names.

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
  queue: string,
  limit: number,
  visit: (held: Held[], ch: ConfirmChannel) => Promise<T>,
  onEach?: (h: Held, ch: ConfirmChannel) => Promise<boolean>,
): Promise<T> {
  return browseNamed(link, dlqOf(queue), queue, limit, visit, onEach);
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
 * The first `limit` letters of `<queue>.dlq` (those it held at the start), each mapped by `map`,
 * from a browse shared with overlapping reads of the same DLQ (readQueue).
 */
export const readDlq = <T>(link: AmqpLink, lockKey: string, queue: string, limit: number, map: (m: ConsumeMessage) => T): Promise<T[]> =>
  readQueue(link, lockKey, dlqOf(queue), limit, map);
