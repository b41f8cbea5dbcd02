import 'server-only';
import type { Redis } from 'ioredis';
import { redisKeys } from './keys';
import { script, scriptRefused } from './scripts';

// The overview's dead letters per queue, kept between polls for as long as Redis says nothing
// they were counted from has changed. `P:dead` does not say which queue a letter is for, so a
// tally reads the `q` of each of the newest DEAD_SCAN letters' hashes: about 10 ms of Redis time
// per poll, the whole overview's cost. Redis's client-side caching makes keeping it exact: the
// tally is read on a connection with `CLIENT TRACKING` on, redirected to a second one subscribed
// to `__redis__:invalidate`, and Redis sends that one a message when any key read changes (a
// letter dies, is replayed or discarded, a hash is revoked, expires or is rewritten, a flush).
//
// - Redis 7.0 tracks only the keys a script declares (KEYS), not those it reads by name; Valkey
//   tracks both (measured, redis-tally.int.test.ts). So the letters' ids are read first, and
//   their hashes go to the counting script as KEYS: tracked on either server.
// - A kept tally is used only after a PING on the subscribed connection: Redis queues an
//   invalidation before it answers any later command there, so a change made before the PING
//   has been seen by then.
// - Any message, a lost connection or an error drops the tally; it is counted again on the next
//   poll. Where tracking is refused (an ACL without CLIENT or that channel, an old server), every
//   poll counts (the caller's own tally), and tracking is tried again after RETRY_MS.

export interface Tally {
  dead: Map<string, number>;
  orphans: number;
}

export const RETRY_MS = 60_000;

/** KEYS: letters' hashes → `[orphans, queue, count, …]`: the `q` of each, tallied. Read-only. */
const TALLY = script(
  'dead-tally',
  `
local counts, order, orphans = {}, {}, 0
for i = 1, #KEYS do
  local q = redis.call('HGET', KEYS[i], 'q')
  if q then
    local c = counts[q]
    if c then counts[q] = c + 1 else counts[q] = 1; order[#order + 1] = q end
  else orphans = orphans + 1 end
end
local out = { orphans }
for _, q in ipairs(order) do out[#out + 1] = q; out[#out + 1] = counts[q] end
return out
`,
);

async function countSlice(trk: Redis, keys: Buffer[], into: Tally): Promise<void> {
  let out: unknown[];
  try {
    try {
      out = (await trk.evalsha(TALLY.sha, keys.length, ...keys)) as unknown[];
    } catch (e) {
      if (!(e instanceof Error) || !e.message.includes('NOSCRIPT')) throw e;
      out = (await trk.eval(TALLY.lua, keys.length, ...keys)) as unknown[];
    }
  } catch (e) {
    if (!scriptRefused(e)) throw e;
    // No scripts: one HGET per letter, on the same connection (plain reads are tracked too).
    const p = trk.pipeline();
    for (const key of keys) p.hget(key, 'q');
    out = [0];
    for (const [, q] of (await p.exec()) ?? []) {
      if (typeof q === 'string') out.push(q, 1);
      else out[0] = Number(out[0]) + 1;
    }
  }
  into.orphans += Number(out[0]);
  for (let i = 1; i + 1 < out.length; i += 2) into.dead.set(String(out[i]), (into.dead.get(String(out[i])) ?? 0) + Number(out[i + 1]));
}

/** The tally on the tracking connection: the newest `scan` ids at once, their hashes `slice` per call. */
async function countTracked(trk: Redis, prefix: string, scan: number, slice: number): Promise<Tally> {
  const k = redisKeys(prefix);
  // Ids as bytes: an id that is not UTF-8 names its hash exactly.
  const ids = await trk.zrevrangeBuffer(k.dead, 0, scan - 1);
  const job = Buffer.from(k.job(''));
  const into: Tally = { dead: new Map(), orphans: 0 };
  for (let i = 0; i < ids.length; i += slice)
    await countSlice(
      trk,
      ids.slice(i, i + slice).map((id) => Buffer.concat([job, id])),
      into,
    );
  return into;
}

export interface DeadTally {
  /** The tally, kept or counted again; `count` is the untracked tally, for when tracking is refused. */
  get(count: () => Promise<Tally>): Promise<Tally>;
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
  o: { scan: number; slice: number; log?: (e: Record<string, unknown>) => void },
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
      if (!l) return count();
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
        const value = await countTracked(l.trk, prefix, o.scan, o.slice);
        if (g === gen && link === l) kept = { gen: g, value };
        return value;
      } catch (e) {
        // The tracking connections failed (a timeout, a kill): count as without them.
        log({ event: 'console.redis-tally-dropped', prefix, message: e instanceof Error ? e.message : String(e) });
        drop(l);
        return count();
      }
    },
    close() {
      closed = true;
      if (link) drop(link);
    },
  };
}
