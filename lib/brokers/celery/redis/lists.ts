import 'server-only';
import type { Redis } from 'ioredis';
import { parseEnvelope, type CeleryEnvelope } from '../message';
import { bindingQueue, isControlExchange, isControlQueue, PRIORITY_STEPS, type CeleryRedisKeys } from './keys';

// Reading kombu's lists without changing them: LRANGE / LINDEX / LLEN only. Workers BRPOP the
// buckets of a queue in step order and take the RIGHT end of each, so claim order is bucket by
// bucket, right to left; a position is counted from the right (0 = the next one taken), which
// LPUSHes by producers do not shift.

export const CHUNK = 200;

export interface WaitingItem {
  raw: string;
  env: CeleryEnvelope;
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

/** Items `pos .. pos+n-1` from the right of one bucket, in claim order. */
export async function readRight(client: Redis, key: string, pos: number, n: number): Promise<string[]> {
  const items = await client.lrange(key, -(pos + n), -(pos + 1));
  return items.reverse();
}

/**
 * The waiting messages of one queue in claim order, from `(bucket, pos)` on, at most `max`
 * read. Yields items as they are read.
 */
export async function* walkQueue(
  client: Redis,
  keys: CeleryRedisKeys,
  queue: string,
  from: { bucket: number; pos: number } = { bucket: 0, pos: 0 },
  max = Number.POSITIVE_INFINITY,
): AsyncGenerator<WaitingItem> {
  let read = 0;
  for (let b = from.bucket; b < PRIORITY_STEPS.length; b++) {
    const key = keys.bucket(queue, PRIORITY_STEPS[b]!);
    let pos = b === from.bucket ? from.pos : 0;
    for (;;) {
      if (read >= max) return;
      const items = await readRight(client, key, pos, Math.min(CHUNK, max - read));
      for (const raw of items) {
        yield { raw, env: parseEnvelope(raw), queue, bucket: b, pos };
        pos += 1;
        read += 1;
      }
      if (items.length < CHUNK) break;
    }
  }
}

/** Where a page resumes: after `lastId` at `(bucket, pos)`, found again if the list moved
 *  (a restore pushed to the right end, a worker took some). Gone entirely: the bucket's right
 *  end, since what was right of it was taken first. */
export async function resumeAt(
  client: Redis,
  keys: CeleryRedisKeys,
  queue: string,
  at: { bucket: number; pos: number; lastId: string },
): Promise<{ bucket: number; pos: number }> {
  const key = keys.bucket(queue, PRIORITY_STEPS[at.bucket] ?? 0);
  const same = await client.lindex(key, -(at.pos + 1));
  if (same !== null && parseEnvelope(same).info.id === at.lastId) return { bucket: at.bucket, pos: at.pos + 1 };
  for await (const item of walkQueue(client, keys, queue, { bucket: at.bucket, pos: 0 }, 20_000)) {
    if (item.bucket !== at.bucket) break;
    if (item.env.info.id === at.lastId) return { bucket: at.bucket, pos: item.pos + 1 };
  }
  return { bucket: at.bucket, pos: 0 };
}

export interface ReservedItem {
  tag: string;
  /** Epoch seconds the worker took it (unacked_index score), null when not indexed. */
  deliveredAt: number | null;
  raw: string;
  env: CeleryEnvelope;
  queue: string;
}

/** Messages workers hold (kombu's `unacked` hash), in delivery order; up to `cap`. */
export async function readReserved(client: Redis, keys: CeleryRedisKeys, cap = 10_000): Promise<{ items: ReservedItem[]; total: number }> {
  const [[, total], [, index]] = ((await client
    .multi()
    .hlen(keys.unacked)
    .zrange(keys.unackedIndex, '0', String(cap - 1), 'WITHSCORES')
    .exec()) ?? []) as [[unknown, number], [unknown, string[]]];
  const scores = new Map<string, number>();
  for (let i = 0; i + 1 < index.length; i += 2) scores.set(index[i]!, Number(index[i + 1]));
  const entries: Array<[string, string]> = [];
  if (total <= cap) {
    const all = await client.hgetall(keys.unacked);
    entries.push(...Object.entries(all));
  } else {
    const tags = [...scores.keys()];
    const values = tags.length ? await client.hmget(keys.unacked, ...tags) : [];
    tags.forEach((t, i) => values[i] && entries.push([t, values[i]!]));
  }
  const items: ReservedItem[] = [];
  for (const [tag, entry] of entries) {
    let message: unknown = null;
    let rk: unknown = null;
    try {
      [message, , rk] = JSON.parse(entry) as [unknown, unknown, unknown];
    } catch {
      message = null;
    }
    const raw = message && typeof message === 'object' ? JSON.stringify(message) : entry;
    items.push({ tag, deliveredAt: scores.get(tag) ?? null, raw, env: parseEnvelope(raw), queue: typeof rk === 'string' ? rk : '' });
  }
  items.sort((a, b) => (a.deliveredAt ?? Infinity) - (b.deliveredAt ?? Infinity) || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return { items, total };
}

/** Whether a waiting message's ETA is still ahead (it is "scheduled"), at `now`. */
export const isFuture = (env: CeleryEnvelope, now: number) => env.etaMs !== null && env.etaMs > now;
