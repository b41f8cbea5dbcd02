import 'server-only';
import type { ConsumeMessage } from 'amqplib';
import { withDlqLock } from './browse-lock';
import { DlqStream, PREFETCH } from './dlq-stream';
import type { AmqpLink } from './connection';

/** How long a read waits for its next letter before it asks the DLQ whether any is left to
 *  deliver (someone else, e.g. `potatoq dead retry`, may have taken some since it started). */
export const IDLE_MS = 50;

/**
 * Reads of one DLQ that overlap share a browse. The dead-letter page alone asks for its list, its
 * error groups and its trend chart at once, and every open page polls; each is a full browse
 * of the DLQ under its lock, so they used to run one after another, each delivering and
 * returning every letter again. A read that arrives while a browse of the same DLQ (and limit)
 * waits for the lock joins it; one that arrives after that browse has started waits for the next
 * one (which every later arrival joins in turn). So a read never gets letters browsed before it
 * was asked for, and any number of overlapping reads cost at most two browses. Only reads
 * through the same connection (the same broker entry, so the same credentials) share.
 */
interface Flight {
  started: boolean;
  letters: Promise<ConsumeMessage[]>;
}
const FLIGHTS = Symbol.for('potatoq.console.dlqReadFlights');
type Global = typeof globalThis & { [FLIGHTS]?: WeakMap<AmqpLink, Map<string, Flight>>; [BROWSES]?: { n: number } };
const BROWSES = Symbol.for('potatoq.console.dlqBrowses');

/** Browses started in this process (all DLQs): what joined reads save shows here. */
export const dlqBrowsesStarted = (): number => ((globalThis as Global)[BROWSES] ??= { n: 0 }).n;

/**
 * The first `limit` letters of the dead-letter queue `dlq` (those it held at the start), each
 * mapped by `map`, from a browse shared with overlapping reads of the same DLQ (above).
 */
export async function readQueue<T>(
  link: AmqpLink,
  lockKey: string,
  dlq: string,
  limit: number,
  map: (m: ConsumeMessage) => T,
): Promise<T[]> {
  const g = globalThis as Global;
  const byLink = (g[FLIGHTS] ??= new WeakMap());
  let flights = byLink.get(link);
  if (!flights) byLink.set(link, (flights = new Map()));
  const key = `${lockKey}|${dlq}|${limit}`;
  let flight = flights.get(key);
  if (!flight || flight.started) {
    const f: Flight = { started: false, letters: Promise.resolve([]) };
    const mine = flights;
    f.letters = browseDlq(link, dlq, limit, () => {
      f.started = true;
      (g[BROWSES] ??= { n: 0 }).n++;
    }).finally(() => {
      if (mine.get(key) === f) mine.delete(key);
    });
    flights.set(key, f);
    flight = f;
  }
  return (await flight.letters).map(map);
}

/**
 * One browse: the first `limit` letters of `dlq` (those it held at the start), read under the browse
 * lock by a consumer instead of one `basic.get` round trip per letter, then all returned to the
 * DLQ (`DlqStream.release`); nothing is acked. The consumer's prefetch is the limit, so a
 * deeper DLQ is not delivered past it (RabbitMQ 4.3 puts requeued letters behind the others:
 * what a partial read took moves to the DLQ's end). If the console or the broker dies
 * meanwhile, the channel's unacked letters go back to the DLQ: nothing is lost. `onStart` runs
 * once the lock is held.
 */
async function browseDlq(link: AmqpLink, dlq: string, limit: number, onStart: () => void): Promise<ConsumeMessage[]> {
  return withDlqLock(link, dlq, () => {
    onStart();
    return link.withConfirmChannel(async (ch) => {
      const depth = Math.min(limit, (await ch.checkQueue(dlq)).messageCount);
      const out: ConsumeMessage[] = [];
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
          out.push(m.msg);
          next = take();
        }
        return out;
      } finally {
        await stream.stop();
        await stream.release(); // every letter back, in its place
      }
    });
  });
}
