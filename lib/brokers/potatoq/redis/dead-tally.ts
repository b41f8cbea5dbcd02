import 'server-only';
import type { Redis } from 'ioredis';
import { redisKeys } from './keys';
import { ROW_FIELDS } from './rows';

// The overview's dead letters per queue, kept between polls and brought up to date by reading
// again only what changed. `P:dead` does not say which queue a letter is for, so counting reads
// the `q` of each of the newest `scan` letters' hashes: about 10 ms of Redis time per poll, the
// whole overview's cost, if done every time.
//
// Redis's client-side caching says what changed. The window (the newest `scan` ids of `P:dead`
// and each one's `q`) is read with plain commands (ZREVRANGE, HGET) on a connection with
// `CLIENT TRACKING ON REDIRECT` to a second one subscribed to `__redis__:invalidate`; the server
// then sends that one the name of every key read that changes afterwards (a letter dies, is
// replayed or discarded, its hash is revoked, rewritten, expires or is evicted) and a null for a
// flush. Plain commands only: Redis 7.0 tracks every key a plain command reads, once each, but
// not the keys a script reads by name (measured in redis-tally.int.test.ts).
//
// Why the kept window is exact:
// - A key is tracked from the moment it is read until the server reports it changed, so a write
//   after our read always produces a message, and a write before it is in what we read.
// - Before a kept window is used, a PING on the subscribed connection: the server queues an
//   invalidation before it answers any later command there, so every change made before the PING
//   has been reported by then.
// - A reported hash still in the window is read again (which tracks it again); a reported
//   `P:dead` means its ids are read again and only the newcomers' hashes. Reports that come late or
//   twice only cost a read. A letter that left the window and comes back is a newcomer: read.
// - A flush, too many reports, a lost connection or any error drops the window; the next poll
//   counts (the `count` callback, a script on the main connection) while the window is read again
//   in the background, 100-200 ms of pipelined HGETs once.
// The same window keeps the newest TOP letters' row fields (HMGET ROW_FIELDS, tracked the same way),
// so the unfiltered first page of dead letters, the page an on-call engineer polls, costs that PING
// too. A row over ROW_BYTES is not kept (the page is then read from Redis as before).
// Where tracking is refused (an ACL without CLIENT, SUBSCRIBE or that channel) every poll counts,
// and tracking is tried again after RETRY_MS.

export interface Tally {
  dead: Map<string, number>;
  orphans: number;
}

export const RETRY_MS = 60_000;
/** HGETs per pipelined slice when the window is read. */
export const READ_SLICE = 1000;
/** Reports held at most between two polls; beyond that the window is read again from scratch. */
export const MAX_PENDING = 50_000;
/** Newest letters whose row fields are kept: a first page of up to TOP - 1 (one more says whether more follow). */
export const TOP = 101;
/** A kept row's fields at most (bytes); a bigger one is read from Redis each time. */
export const ROW_BYTES = 64 * 1024;

/** ROW_FIELDS of one letter, as bytes (rows.ts's `toRow` reads them). */
export type Raw = Array<Buffer | null>;

/** The newest letters, first `limit`, with their scores and fields, as pageRows answers. */
export interface NewestPage {
  entries: Array<[string, string]>;
  raws: Raw[];
  more: boolean;
}

export interface DeadTally {
  /** The tally of the newest `scan` letters: from the kept window where there is one, else
   *  `count` on the main client (and the window is read in the background). */
  get(count: (on: Redis) => Promise<Tally>): Promise<Tally>;
  /** The newest `limit` letters from the kept window; null when not kept (read them from Redis). */
  newest(limit: number): Promise<NewestPage | null>;
  /** Whether the last `get` or `newest` answered from the kept window (for tests and benchmarks). */
  readonly lastHit: boolean;
  /** Keys the last `get` read again to bring the window up to date (for tests). */
  readonly lastRead: number;
  /** Resolves when no window is being read (for tests and benchmarks). */
  settled(): Promise<void>;
  close(): void;
}

interface Window {
  /** The newest `scan` ids of P:dead, newest first. */
  ids: string[];
  /** Each id's `q` (null: no hash, an orphan). */
  q: Map<string, string | null>;
  tally: Tally;
  /** The newest TOP (id, score) and each one's fields (null: over ROW_BYTES, not kept). */
  top: Array<[string, string]>;
  rows: Map<string, Raw | null>;
}

interface Link {
  sub: Redis;
  trk: Redis;
  win: Window | null;
  reading: Promise<void> | null;
  /** Keys reported changed since they were last read; `flushed` when the server dropped them all. */
  pending: Set<string>;
  flushed: boolean;
  /** The polls of this link, one at a time. */
  turn: Promise<unknown>;
}

function tallyOf(ids: string[], q: Map<string, string | null>): Tally {
  const dead = new Map<string, number>();
  let orphans = 0;
  for (const id of ids) {
    const name = q.get(id);
    if (typeof name === 'string') dead.set(name, (dead.get(name) ?? 0) + 1);
    else orphans++;
  }
  return { dead, orphans };
}

export function createDeadTally(client: Redis, prefix: string, o: { scan: number; log?: (e: Record<string, unknown>) => void }): DeadTally {
  const log = o.log ?? ((e) => console.error(JSON.stringify(e)));
  const k = redisKeys(prefix);
  const jobPrefix = k.job('');
  let link: Link | null = null;
  let opening: Promise<Link> | null = null;
  let refusedUntil = 0;
  let closed = false;
  let lastHit = false;
  let lastRead = 0;

  const drop = (l: Link) => {
    l.win = null;
    if (link !== l) return;
    link = null;
    l.sub.disconnect();
    l.trk.disconnect();
  };

  async function open(): Promise<Link> {
    // RESP2 on both: ioredis hands RESP3 invalidation pushes to no one, but RESP2 sends them as
    // messages on the channel. No reconnects: a new connection would not be tracked.
    const dup = () => client.duplicate({ protocol: 2, lazyConnect: true, retryStrategy: () => null, autoResubscribe: false });
    const l: Link = { sub: dup(), trk: dup(), win: null, reading: null, pending: new Set(), flushed: false, turn: Promise.resolve() };
    for (const c of [l.sub, l.trk]) {
      c.on('error', () => undefined);
      c.on('close', () => drop(l));
    }
    try {
      await Promise.all([l.sub.connect(), l.trk.connect()]);
      const id = await l.sub.client('ID');
      l.sub.on('messageBuffer', (_ch: Buffer, m: Buffer | Buffer[] | null) => {
        if (m === null) l.flushed = true;
        else for (const key of Array.isArray(m) ? m : [m]) l.pending.add(key.toString());
        if (l.pending.size > MAX_PENDING) l.flushed = true;
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

  /** Each id's `q`, read (and so tracked) on the tracking connection. */
  async function readQueues(l: Link, ids: string[], into: Map<string, string | null>): Promise<void> {
    for (let i = 0; i < ids.length; i += READ_SLICE) {
      const slice = ids.slice(i, i + READ_SLICE);
      const p = l.trk.pipeline();
      for (const id of slice) p.hget(k.job(id), 'q');
      const out = (await p.exec()) ?? [];
      slice.forEach((id, j) => {
        const [err, q] = out[j] ?? [new Error('no reply'), null];
        if (err) throw err;
        into.set(id, typeof q === 'string' ? q : null);
      });
    }
  }

  /** Each id's row fields, read (and so tracked) on the tracking connection. */
  async function readRows(l: Link, ids: string[], into: Map<string, Raw | null>): Promise<void> {
    if (ids.length === 0) return;
    const p = l.trk.pipeline();
    for (const id of ids) p.hmgetBuffer(k.job(id), ...ROW_FIELDS);
    const out = (await p.exec()) ?? [];
    ids.forEach((id, j) => {
      const [err, raw] = out[j] ?? [new Error('no reply'), null];
      if (err) throw err;
      const r = raw as Raw;
      into.set(id, r.reduce((n, b) => n + (b?.length ?? 0), 0) > ROW_BYTES ? null : r);
    });
  }

  /** The window's ids and the newest TOP with scores: two reads of P:dead in one round trip. Not
   *  MULTI (a read-only ACL may refuse it): a change between the two is reported, so the next poll
   *  reads both again. */
  async function readDead(l: Link): Promise<{ ids: string[]; top: Array<[string, string]> }> {
    const out =
      (await l.trk
        .pipeline()
        .zrevrange(k.dead, 0, o.scan - 1)
        .zrevrange(k.dead, 0, TOP - 1, 'WITHSCORES')
        .exec()) ?? [];
    for (const [err] of out) if (err) throw err;
    const ids = (out[0]?.[1] ?? []) as string[];
    const flat = (out[1]?.[1] ?? []) as string[];
    const top: Array<[string, string]> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) top.push([flat[i]!, flat[i + 1]!]);
    return { ids, top };
  }

  /** Reads the whole window; reports that come while it is read are kept for the next poll. */
  function readWindow(l: Link): void {
    if (l.reading) return;
    l.pending.clear();
    l.flushed = false;
    l.reading = (async () => {
      const { ids, top } = await readDead(l);
      const q = new Map<string, string | null>();
      const rows = new Map<string, Raw | null>();
      await readQueues(l, ids, q);
      await readRows(
        l,
        top.map(([id]) => id),
        rows,
      );
      if (link === l && !l.flushed) l.win = { ids, q, tally: tallyOf(ids, q), top, rows };
    })()
      .catch((e: unknown) => {
        // Not tried again at once: a read the ACL refuses would fail on every poll.
        refusedUntil = Date.now() + RETRY_MS;
        log({ event: 'console.redis-tally-dropped', prefix, message: e instanceof Error ? e.message : String(e) });
        drop(l);
      })
      .finally(() => (l.reading = null));
  }

  /** The window brought up to date, or null when it must be read again first. */
  async function update(l: Link): Promise<Window | null> {
    const win = l.win;
    if (!win) return null;
    await l.sub.ping();
    if (l.flushed || l.win !== win || link !== l) {
      l.win = null;
      return null;
    }
    const changed = l.pending;
    l.pending = new Set();
    if (changed.size === 0) return win;
    let { ids, top } = win;
    const queues: string[] = [];
    const rows: string[] = [];
    if (changed.has(k.dead)) {
      ({ ids, top } = await readDead(l));
      const now = new Set(ids);
      for (const id of win.ids) if (!now.has(id)) win.q.delete(id);
      for (const id of ids) if (!win.q.has(id)) queues.push(id);
      const nowTop = new Set(top.map(([id]) => id));
      for (const id of win.rows.keys()) if (!nowTop.has(id)) win.rows.delete(id);
      for (const [id] of top) if (!win.rows.has(id)) rows.push(id);
    }
    for (const key of changed) {
      if (!key.startsWith(jobPrefix)) continue;
      const id = key.slice(jobPrefix.length);
      if (win.q.has(id)) queues.push(id);
      if (win.rows.has(id)) rows.push(id);
    }
    const q = [...new Set(queues)];
    const r = [...new Set(rows)];
    await readQueues(l, q, win.q);
    await readRows(l, r, win.rows);
    lastRead = q.length + r.length + (ids === win.ids ? 0 : 1);
    win.ids = ids;
    win.top = top;
    win.tally = tallyOf(ids, win.q);
    return win;
  }

  /** One poll of the kept window, in turn with the others; null when it is not kept (being read). */
  async function poll(): Promise<Window | null> {
    const l = await tracked();
    if (!l) return null;
    const mine = l.turn.then(async () => {
      try {
        const w = await update(l);
        if (w) return w;
      } catch (e) {
        // The tracking connections failed (a timeout, a kill): read as without them.
        log({ event: 'console.redis-tally-dropped', prefix, message: e instanceof Error ? e.message : String(e) });
        drop(l);
        return null;
      }
      if (link === l) readWindow(l);
      return null;
    });
    l.turn = mine.catch(() => undefined);
    return mine;
  }

  return {
    get lastHit() {
      return lastHit;
    },
    get lastRead() {
      return lastRead;
    },
    async settled() {
      await link?.reading;
    },
    async get(count) {
      lastHit = false;
      lastRead = 0;
      const w = await poll();
      if (!w) return count(client);
      lastHit = true;
      return { dead: new Map(w.tally.dead), orphans: w.tally.orphans };
    },
    async newest(limit) {
      lastHit = false;
      lastRead = 0;
      if (limit + 1 > TOP) return null;
      const w = await poll();
      if (!w) return null;
      const entries = w.top.slice(0, limit);
      const raws: Raw[] = [];
      for (const [id] of entries) {
        const r = w.rows.get(id);
        if (!r) return null; // over ROW_BYTES: the page is read from Redis
        raws.push(r);
      }
      lastHit = true;
      return { entries, raws, more: w.top.length > limit };
    },
    close() {
      closed = true;
      if (link) drop(link);
    },
  };
}
