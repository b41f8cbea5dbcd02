import 'server-only';
import type { ConfirmChannel, Message, Options } from 'amqplib';
import { ConsoleError } from '@/lib/brokers/errors';
import { withDlqLock } from './browse-lock';
import type { AmqpLink } from './connection';

export interface Held {
  msg: Message;
  queue: string;
  /** Set once the message has been acked (replayed or discarded). */
  settled: boolean;
  /** How to ack it when not one by one (the redrive coalesces acks); false if the channel is gone. */
  ack?: () => boolean;
}

/**
 * Takes up to `limit` messages from the dead-letter queue `dlq` with `basic.get` (no auto-ack),
 * lets `visit` settle some of them, then returns every other one with `basic.nack(requeue)`, one
 * by one, before the channel closes. Only for RabbitMQ 4.x, where a requeue keeps the letter and
 * its position (3.x counts it as a delivery: a queue with a delivery limit drops it). If the
 * console or the broker dies meanwhile, the channel's unacked messages go back to the DLQ:
 * nothing is lost. `queue` labels the letters (`Held.queue`).
 */
export async function browseNamed<T>(
  link: AmqpLink,
  dlq: string,
  queue: string,
  limit: number,
  visit: (held: Held[], ch: ConfirmChannel) => Promise<T>,
  onEach?: (h: Held, ch: ConfirmChannel) => Promise<boolean>,
): Promise<T> {
  return withDlqLock(link, dlq, () =>
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

/** Acks after the step's publish was confirmed; an ack that can't be sent leaves a duplicate. */
export function ackHeld(h: Held, ch: ConfirmChannel): boolean {
  if (h.ack) {
    h.settled = h.ack();
    return h.settled;
  }
  try {
    ch.ack(h.msg);
    h.settled = true;
    return true;
  } catch {
    return false;
  }
}
