import 'server-only';
import type { Redis } from 'ioredis';
import type { DeadHistogram, DeadHistogramQuery } from '@/lib/brokers/schema';
import { bucketTimes } from '@/lib/trends/ranges';
import { reasonTriage } from '@/lib/triage/reason-fingerprint';
import { redisKeys } from './keys';

/**
 * Dead letters per bucket of their died time. `P:dead` is scored by died ms, so an unfiltered
 * histogram is one pipelined ZCOUNT per bucket, whatever the set's size. A queue or group
 * filter needs each letter's hash: the window's newest `window` letters are read (pipelined
 * HMGET) and `scannedNewest` says so when there were more. Every letter on Redis has a died
 * time (its score), so nothing is undated.
 */
export async function deadHistogram(client: Redis, prefix: string, q: DeadHistogramQuery, window: number): Promise<DeadHistogram> {
  const k = redisKeys(prefix);
  const to = q.fromMs + q.bucketMs * q.buckets;
  if (q.queue === undefined && q.group === undefined) {
    const pipe = client.pipeline();
    for (let b = 0; b < q.buckets; b++) pipe.zcount(k.dead, String(q.fromMs + b * q.bucketMs), `(${q.fromMs + (b + 1) * q.bucketMs}`);
    const res = (await pipe.exec()) ?? [];
    return { counts: res.map((r) => Number(r[1] ?? 0)), undated: 0, scannedNewest: null };
  }
  const flat = await client.zrevrangebyscore(k.dead, `(${to}`, String(q.fromMs), 'WITHSCORES', 'LIMIT', 0, window + 1);
  const n = Math.min(flat.length / 2, window);
  const pipe = client.pipeline();
  for (let i = 0; i < n; i++) pipe.hmget(k.job(flat[2 * i]!), 'q', 'r');
  const res = n ? ((await pipe.exec()) ?? []) : [];
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const [queue, reason] = (res[i]?.[1] as Array<string | null> | undefined) ?? [];
    // A letter whose hash is gone was replayed or discarded between the two reads.
    if (queue === null || queue === undefined || (q.queue !== undefined && queue !== q.queue)) continue;
    if (q.group !== undefined && reasonTriage(reason).fp.key !== q.group) continue;
    times.push(Number(flat[2 * i + 1]));
  }
  return { ...bucketTimes(times, q), scannedNewest: flat.length / 2 > window ? window : null };
}
