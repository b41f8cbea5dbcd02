import 'server-only';
import type { Redis } from 'ioredis';

// The overview's dead letters per queue, kept between polls for as long as Redis says nothing
// they were counted from has changed. `P:dead` does not say which queue a letter is for, so a
// tally reads the `q` of each of the newest DEAD_SCAN letters' hashes: about 10 ms of Redis time
// per poll, the whole overview's cost. Redis's client-side caching makes keeping it exact: the
// tally is read on a connection with `CLIENT TRACKING` on, redirected to a second one subscribed
// to `__redis__:invalidate`, and Redis sends that one a message when any key read changes (a
// letter dies, is replayed or discarded, a hash is revoked, expires or is rewritten, a flush).
//
// - Only where the server tracks the keys a script reads by name (Valkey; measured in
//   redis-tally.int.test.ts). Redis 7.0 tracks only the keys a script declares, and re-remembers
//   every declared key for each command the script runs: declaring 2,000 hashes made one call
//   take 200-280 ms of Redis time (measured), and one plain HGET per letter costs 100+ ms in
//   Node. So on Redis every poll counts, as before (docs/brokers/redis.md).
// - A kept tally is used only after a PING on the subscribed connection: Redis queues an
//   invalidation before it answers any later command there, so a change made before the PING
//   has been seen by then.
// - Any message, a lost connection or an error drops the tally; it is counted again on the next
//   poll. Where tracking is refused (an ACL without CLIENT or that channel), every poll counts,
//   and tracking is tried again after RETRY_MS.

export interface Tally {
  dead: Map<string, number>;
  orphans: number;
}

export const RETRY_MS = 60_000;

export interface DeadTally {
  /** The tally, kept or counted by `count` on the tracking connection (on the main client
   *  where there is none). */
  get(count: (on: Redis) => Promise<Tally>): Promise<Tally>;
  /** Whether the last `get` answered from a kept tally (for tests and benchmarks). */
  readonly lastHit: boolean;
  close(): void;
}

interface Link {
  sub: Redis;
  trk: Redis;
}

export function createDeadTally(
  client: Redis,
  prefix: string,
  o: {
    /** Whether the server tracks the keys a script reads by name (checked before tracking is turned on). */
    tracksScriptReads: () => Promise<boolean>;
    log?: (e: Record<string, unknown>) => void;
  },
): DeadTally {
  const log = o.log ?? ((e) => console.error(JSON.stringify(e)));
  let link: Link | null = null;
  let opening: Promise<Link> | null = null;
  let gen = 0;
  let kept: { gen: number; value: Tally } | null = null;
  let refusedUntil = 0;
  let closed = false;
  let lastHit = false;

  const drop = (l: Link) => {
    if (link !== l) return;
    link = null;
    gen++;
    kept = null;
    l.sub.disconnect();
    l.trk.disconnect();
  };

  async function open(): Promise<Link> {
    // RESP2 on both: ioredis hands RESP3 invalidation pushes to no one, but RESP2 sends them as
    // messages on the channel. No reconnects: a new connection would not be tracked.
    const dup = () => client.duplicate({ protocol: 2, lazyConnect: true, retryStrategy: () => null, autoResubscribe: false });
    const l: Link = { sub: dup(), trk: dup() };
    for (const c of [l.sub, l.trk]) {
      c.on('error', () => undefined);
      c.on('close', () => drop(l));
    }
    try {
      await Promise.all([l.sub.connect(), l.trk.connect()]);
      const id = await l.sub.client('ID');
      l.sub.on('message', () => {
        gen++;
        kept = null;
      });
      await l.sub.subscribe('__redis__:invalidate');
      await l.trk.client('TRACKING', 'ON', 'REDIRECT', String(id));
      if (closed) throw new Error('closed');
      return l;
    } catch (e) {
      l.sub.disconnect();
      l.trk.disconnect();
      throw e;
    }
  }

  async function tracked(): Promise<Link | null> {
    if (link) return link;
    if (closed || Date.now() < refusedUntil) return null;
    try {
      if (!(await o.tracksScriptReads())) {
        refusedUntil = Infinity;
        return null;
      }
      link = await (opening ??= open().finally(() => (opening = null)));
      return link;
    } catch (e) {
      refusedUntil = Date.now() + RETRY_MS;
      log({ event: 'console.redis-tally-untracked', prefix, message: e instanceof Error ? e.message : String(e) });
      return null;
    }
  }

  return {
    get lastHit() {
      return lastHit;
    },
    async get(count) {
      lastHit = false;
      const l = await tracked();
      if (!l) return count(client);
      try {
        const k = kept;
        if (k && k.gen === gen) {
          await l.sub.ping();
          if (kept === k && k.gen === gen && link === l) {
            lastHit = true;
            return k.value;
          }
        }
        const g = gen;
        const value = await count(l.trk);
        if (g === gen && link === l) kept = { gen: g, value };
        return value;
      } catch (e) {
        // The tracking connections failed (a timeout, a kill): count as without them.
        log({ event: 'console.redis-tally-dropped', prefix, message: e instanceof Error ? e.message : String(e) });
        drop(l);
        return count(client);
      }
    },
    close() {
      closed = true;
      if (link) drop(link);
    },
  };
}
