import 'server-only';
import type { ConsumeMessage } from 'amqplib';
import type { DeadFilter } from '@/lib/brokers/schema';
import { isNotFound } from '@/lib/transports/amqp/connection';
import { discoverQueues, requireBrowsable, type RabbitCtx } from './context';
import { withDlqLock } from '@/lib/transports/amqp/browse-lock';
import { DlqStream } from '@/lib/transports/amqp/dlq-stream';
import { compareLetters, lightLetter, toLetter, type Letter } from '@/lib/potatoq/amqp-letter';
import { matches } from './reads';
import { dlqOf } from './topology';

/** A filter on the id or the group reads only the message id and the headers; only a task or
 *  text filter decodes the body. */
const letterFor = (m: ConsumeMessage, queue: string, q: DeadFilter): Letter => (q.task || q.q ? toLetter(m, queue) : lightLetter(m, queue));

type Found = Pick<Letter, 'id' | 'diedAtMs'>;

/** One pass over `<queue>.dlq` under the browse lock: the matching letters of those there at the start, nothing acked. */
async function scanDlq(ctx: RabbitCtx, queue: string, q: DeadFilter, out: Found[]): Promise<void> {
  const dlq = dlqOf(queue);
  await withDlqLock(ctx.link, dlq, () =>
    ctx.link.withChannel(async (ch) => {
      const depth = (await ch.checkQueue(dlq)).messageCount;
      if (depth === 0) return;
      // Nothing is acked, so one channel holds them all (no ack ever searches its list).
      const stream = new DlqStream(() => ctx.link.openChannel(), dlq);
      try {
        await stream.start();
        for (let seen = 0; seen < depth; seen++) {
          const l = letterFor((await stream.next()).msg, queue, q);
          if (matches(l, q)) out.push({ id: l.id, diedAtMs: l.diedAtMs });
        }
      } finally {
        await stream.stop();
        await stream.release(); // every letter back, in its place
      }
    }),
  );
}

/**
 * Every matching letter's id over whole DLQs (no `deadBrowseLimit`), in the list's order
 * (newest first), the first copy of an id only, at most `cap`: the snapshot of a bulk job. A
 * DLQ deleted meanwhile reads as empty, as in the list.
 */
export async function deadIds(ctx: RabbitCtx, q: DeadFilter, cap: number): Promise<{ ids: string[]; capped: boolean }> {
  await requireBrowsable(ctx);
  const names = q.queue ? [q.queue] : (await discoverQueues(ctx)).names;
  const exists = await ctx.link.checkMany(names.map(dlqOf));
  const found: Found[] = [];
  for (const name of names) {
    if (!exists.get(dlqOf(name))) continue;
    await scanDlq(ctx, name, q, found).catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
    });
  }
  found.sort((a, b) => compareLetters(a as Letter, b as Letter));
  const ids = [...new Set(found.map((f) => f.id))];
  return { ids: ids.slice(0, cap), capped: ids.length > cap };
}
