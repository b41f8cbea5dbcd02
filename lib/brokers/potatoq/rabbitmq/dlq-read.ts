import 'server-only';
import type { ConsumeMessage } from 'amqplib';
import { withDlqLock } from './dlq';
import { DlqStream, PREFETCH } from './dlq-stream';
import type { AmqpLink } from './connection';
import { dlqOf } from './topology';

/** How long a read waits for its next letter before it asks the DLQ whether any is left to
 *  deliver (someone else, e.g. `potatoq dead retry`, may have taken some since it started). */
export const IDLE_MS = 50;

/**
 * The first `limit` letters of `<queue>.dlq` (those it held at the start), read under the browse
 * lock by a consumer instead of one `basic.get` round trip per letter, then all returned to the
 * DLQ (`DlqStream.release`); nothing is acked. The consumer's prefetch is the limit, so a
 * deeper DLQ is not delivered past it (RabbitMQ 4.3 puts requeued letters behind the others:
 * what a partial read took moves to the DLQ's end). If the console or the broker dies
 * meanwhile, the channel's unacked letters go back to the DLQ: nothing is lost.
 */
export async function readDlq<T>(
  link: AmqpLink,
  lockKey: string,
  queue: string,
  limit: number,
  map: (m: ConsumeMessage) => T,
): Promise<T[]> {
  const dlq = dlqOf(queue);
  return withDlqLock(link, lockKey, dlq, () =>
    link.withConfirmChannel(async (ch) => {
      const depth = Math.min(limit, (await ch.checkQueue(dlq)).messageCount);
      const out: T[] = [];
      if (depth === 0) return out;
      // A consumer that holds `limit` letters gets no more (no hand-over below AMQP's 65,535).
      const stream = new DlqStream(() => link.openChannel(), dlq, { prefetch: Math.min(limit, PREFETCH), handOver: limit > PREFETCH });
      await stream.start();
      try {
        // One pending take at a time (a second would take a letter nobody reads); its failure
        // (the channel gone) is seen by the await, or not at all once the read is over.
        const take = () => {
          const p = stream.next();
          p.catch(() => undefined);
          return p;
        };
        let next = take();
        while (out.length < depth) {
          let timer: NodeJS.Timeout | undefined;
          const idle = new Promise<null>((r) => (timer = setTimeout(() => r(null), IDLE_MS)));
          const m = await Promise.race([next, idle]).finally(() => clearTimeout(timer));
          if (m === null) {
            // Ready letters count only those nobody holds: none left means none is coming.
            if ((await ch.checkQueue(dlq)).messageCount === 0) break;
            continue;
          }
          out.push(map(m.msg));
          next = take();
        }
        return out;
      } finally {
        await stream.stop();
        await stream.release(); // every letter back, in its place
      }
    }),
  );
}
