import 'server-only';
import type { Redis } from 'ioredis';
import type { CeleryEnvelope } from '../message';
import { bindingQueue, isControlExchange, isControlQueue, PRIORITY_STEPS, type CeleryRedisKeys } from './keys';
import { decodeItem, HEADS, ReadBudget, reservedEntry, SCAN_BYTES, type ReadProfile } from './read-profile';
import { readHashItems, readListItems, type ReadStats } from './read-script';

// Reading kombu's lists without changing them: LRANGE / LINDEX / LLEN only. Workers BRPOP the
// buckets of a queue in step order and take the RIGHT end of each, so claim order is bucket by
// bucket, right to left; a position is counted from the right (0 = the next one taken), which
// LPUSHes by producers do not shift.

export const CHUNK = 200;

/** A reader of kombu's keys: the broker's client, its key names, and the reads' running cost. */
export interface ListReader {
  client: Redis;
  keys: CeleryRedisKeys;
  stats: ReadStats;
}

export interface WaitingItem {
  /** The exact item (what LREM needs) when it was read whole, null when only part of it was. */
  raw: Buffer | null;
  /** The item's first bytes as read: the whole item, or its first `prefix`/`head` bytes. */
  first: Buffer;
  env: CeleryEnvelope;
  /** The task id; a message without one gets `no-id-<hash of its size and first bytes>`. */
  id: string;
  queue: string;
  /** Index of the bucket in PRIORITY_STEPS. */
  bucket: number;
  /** Position from the right end of the bucket's list (0 = next). */
  pos: number;
}
/** Task queues: the configured ones, else kombu's bindings (control exchanges left out). */
export async function discoverQueues(client: Redis, keys: CeleryRedisKeys, configured?: string[]): Promise<string[]> {
  if (configured?.length) return [...new Set(configured)].sort();
  const found = new Set<string>();
  let cursor = '0';
  const bindingKeys: string[] = [];
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', keys.bindingPattern, 'COUNT', 1000);
    cursor = next;
    bindingKeys.push(...batch);
  } while (cursor !== '0' && bindingKeys.length < 10_000);
  const exchanges = bindingKeys.filter((k) => !isControlExchange(k.slice(keys.binding('').length)));
  if (exchanges.length) {
    const pipe = client.pipeline();
    for (const k of exchanges) pipe.smembers(k);
    for (const [, members] of (await pipe.exec()) ?? []) {
      for (const m of (members as string[] | null) ?? []) {
        const q = bindingQueue(m);
        if (q && !isControlQueue(q)) found.add(q);
      }
    }
  }
  return [...found].sort();
}

/** LLEN of each bucket of each queue, pipelined: `[queue] -> [n per bucket]`. */
export async function bucketSizes(client: Redis, keys: CeleryRedisKeys, queues: string[]): Promise<Map<string, number[]>> {
  const pipe = client.pipeline();
  for (const q of queues) for (const k of keys.buckets(q)) pipe.llen(k);
  const res = (await pipe.exec()) ?? [];
  const out = new Map<string, number[]>();
  queues.forEach((q, i) =>
    out.set(
      q,
      PRIORITY_STEPS.map((_, j) => Number(res[i * PRIORITY_STEPS.length + j]?.[1] ?? 0)),
    ),
  );
  return out;
}

/**
 * The waiting messages of one queue in claim order, from `(bucket, pos)` on: at most `max`,
 * and none once `budget` is spent (`budget.cut` then says the walk stopped early). Each item
 * is read and decoded as `profile` says (./read-profile.ts). Yields items as they are read.
 */
export async function* walkQueue(
  r: ListReader,
  queue: string,
  profile: ReadProfile,
  budget: ReadBudget,
  from: { bucket: number; pos: number } = { bucket: 0, pos: 0 },
  max = Number.POSITIVE_INFINITY,
): AsyncGenerator<WaitingItem> {
  let read = 0;
  for (let b = from.bucket; b < PRIORITY_STEPS.length; b++) {
    const key = r.keys.bucket(queue, PRIORITY_STEPS[b]!);
    let pos = b === from.bucket ? from.pos : 0;
    for (;;) {
      if (read >= max) return;
      if (budget.spent()) {
        budget.cut = true;
        return;
      }
      const n = Math.min(CHUNK, max - read);
      const callBytes = budget.perCall();
      const items = await readListItems(r.client, r.stats, key, pos, n, callBytes, profile.shape);
      let used = 0;
      for (const raw of items) {
        used += raw.size;
        const it = decodeItem(r, raw, profile, budget);
        yield { ...it, queue, bucket: b, pos };
        pos += 1;
        read += 1;
      }
      if (items.length < n && used < callBytes) break;
    }
  }
}

/** The message at `(bucket, pos)` of a queue, read as `profile` says; null past the end. */
export async function readAt(
  r: ListReader,
  queue: string,
  at: { bucket: number; pos: number },
  profile: ReadProfile,
): Promise<WaitingItem | null> {
  const key = r.keys.bucket(queue, PRIORITY_STEPS[at.bucket] ?? 0);
  const [raw] = await readListItems(r.client, r.stats, key, at.pos, 1, 1, profile.shape);
  return raw ? { ...decodeItem(r, raw, profile, new ReadBudget(Number.POSITIVE_INFINITY)), queue, bucket: at.bucket, pos: at.pos } : null;
}

/** Where a page resumes: after `lastId` at `(bucket, pos)`, found again if the list moved
 *  (a restore pushed to the right end, a worker took some). Gone entirely: the bucket's right
 *  end, since what was right of it was taken first. */
export async function resumeAt(
  r: ListReader,
  queue: string,
  at: { bucket: number; pos: number; lastId: string },
): Promise<{ bucket: number; pos: number }> {
  const same = await readAt(r, queue, at, HEADS);
  if (same?.id === at.lastId) return { bucket: at.bucket, pos: at.pos + 1 };
  for await (const item of walkQueue(r, queue, HEADS, new ReadBudget(SCAN_BYTES), { bucket: at.bucket, pos: 0 }, 20_000)) {
    if (item.bucket !== at.bucket) break;
    if (item.id === at.lastId) return { bucket: at.bucket, pos: item.pos + 1 };
  }
  return { bucket: at.bucket, pos: 0 };
}

export interface ReservedItem {
  tag: string;
  /** Epoch seconds the worker took it (unacked_index score), null when not indexed. */
  deliveredAt: number | null;
  /** The message's first bytes as read (the whole message when it was read whole). */
  first: Buffer;
  env: CeleryEnvelope;
  id: string;
  queue: string;
}

/** Messages workers hold (kombu's `unacked` hash), in delivery order; up to `cap`, and the
 *  ones `budget` left room for (`budget.cut` when it stopped early; `total` counts them all). */
export async function readReserved(
  r: ListReader,
  cap = 10_000,
  budget = new ReadBudget(SCAN_BYTES),
): Promise<{ items: ReservedItem[]; total: number; cut: boolean }> {
  const [[, total], [, index]] = ((await r.client
    .multi()
    .hlen(r.keys.unacked)
    .zrange(r.keys.unackedIndex, '0', String(cap - 1), 'WITHSCORES')
    .exec()) ?? []) as [[unknown, number], [unknown, string[]]];
  const scores = new Map<string, number>();
  for (let i = 0; i + 1 < index.length; i += 2) scores.set(index[i]!, Number(index[i + 1]));
  const tags = total <= cap ? await r.client.hkeys(r.keys.unacked) : [...scores.keys()];
  const items: ReservedItem[] = [];
  let i = 0;
  while (i < tags.length && !budget.spent()) {
    const chunk = tags.slice(i, i + CHUNK);
    const read = await readHashItems(r.client, r.stats, r.keys.unacked, chunk, budget.perCall(), HEADS.shape);
    i += read.length;
    for (const raw of read) {
      if (raw.kind === 'x') continue;
      const entry = reservedEntry(r, raw, budget);
      items.push({ tag: raw.field, deliveredAt: scores.get(raw.field) ?? null, ...entry });
    }
    if (!read.length) break;
  }
  const cut = i < tags.length;
  if (cut) budget.cut = true;
  items.sort((a, b) => (a.deliveredAt ?? Infinity) - (b.deliveredAt ?? Infinity) || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return { items, total, cut };
}

/** Whether a waiting message's ETA is still ahead (it is "scheduled"), at `now`. */
export const isFuture = (env: CeleryEnvelope, now: number) => env.etaMs !== null && env.etaMs > now;
