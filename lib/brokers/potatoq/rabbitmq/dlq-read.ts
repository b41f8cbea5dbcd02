import 'server-only';
import type { ConsumeMessage } from 'amqplib';
import { withDlqLock } from './dlq';
import { DlqStream, PREFETCH } from './dlq-stream';
import type { AmqpLink } from './connection';
import { dlqOf } from './topology';

/** How long a read waits for the next letter of those the DLQ held at the start before it
 *  takes the DLQ as shorter (someone else, e.g. `potatoq dead retry`, removed some meanwhile). */
export const IDLE_MS = 2000;

/**
 * The first `limit` letters of `<queue>.dlq` (those it held at the start), read under the browse
 * lock by a consumer instead of one `basic.get` round trip per letter, then all returned to the
 * DLQ in their places (`DlqStream.release`); nothing is acked. The consumer's prefetch is the
 * limit + 1 (at the limit a full consumer would hand over to a new one), so a deeper DLQ is not
 * delivered past it. If the console or the broker dies meanwhile, the channel's unacked letters
 * go back to the DLQ: nothing is lost.
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
      const stream = new DlqStream(ch, dlq, Math.min(limit + 1, PREFETCH));
      await stream.start();
      try {
        while (out.length < depth) {
          let timer: NodeJS.Timeout | undefined;
          const idle = new Promise<null>((r) => (timer = setTimeout(() => r(null), IDLE_MS)));
          const m = await Promise.race([stream.next(), idle]).finally(() => clearTimeout(timer));
          if (m === null) break;
          out.push(map(m));
        }
        return out;
      } finally {
        await stream.stop();
        stream.release(); // every letter back, in its place
      }
    }),
  );
}
