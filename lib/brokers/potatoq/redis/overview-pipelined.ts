import 'server-only';
import type { Redis } from 'ioredis';
import { PRIO, redisKeys } from './keys';
import type { RawOverview, RawQueue } from './overview-raw';
import { timeMs } from './rows';

// The overview's per-queue reads without scripts (a user whose ACL refuses EVALSHA, a server
// with scripting disabled): the same answer as overview-script.ts in 3 + MAX_BANDS pipelined
// round trips (one more past MAX_QUEUES queues).

type R = Array<[Error | null, unknown]>;
const at = (res: R, i: number) => res[i]?.[1];
const flat = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** Start of the next priority band after a ready score (bands are `-p·2^40 + [0, 2^40)`). */
export const nextBand = (score: number) => Math.floor(score / PRIO) * PRIO + PRIO;

/** The names of `P:queues` in order, at most `max` of them (SSCAN past `max`: the set is never pruned). */
export async function listQueues(client: Redis, prefix: string, card: number, max: number): Promise<string[]> {
  const k = redisKeys(prefix);
  let names: string[];
  if (card <= max) names = await client.smembers(k.queues);
  else {
    const seen = new Set<string>();
    let cur = '0';
    do {
      const [next, batch] = await client.sscan(k.queues, cur, 'COUNT', 500);
      cur = next;
      for (const q of batch) seen.add(q);
    } while (cur !== '0' && seen.size < max);
    names = [...seen];
  }
  return names.sort().slice(0, max);
}

export async function overviewPipelined(client: Redis, prefix: string, opts: { maxQueues: number; bands: number }): Promise<RawOverview> {
  const k = redisKeys(prefix);
  const r1 = (await client.pipeline().scard(k.queues).time().zcard(k.dead).exec()) as R;
  const [card, now, deadTotal] = [Number(at(r1, 0)), timeMs(at(r1, 1)), Number(at(r1, 2))];
  const names = await listQueues(client, prefix, card, opts.maxQueues);
  // Counts, the first band's head and the next due time.
  const p2 = client.pipeline();
  for (const q of names) {
    p2.zcard(k.ready(q))
      .zcard(k.delayed(q))
      .zcard(k.active(q))
      .zcount(k.active(q), '-inf', now)
      .zrange(k.ready(q), 0, '0', 'WITHSCORES')
      .zrange(k.delayed(q), 0, '0', 'WITHSCORES');
  }
  const r2 = ((await p2.exec()) ?? []) as R;
  let hop: Array<[RawQueue, number]> = [];
  const queues = names.map((name, i): RawQueue => {
    const head = flat(at(r2, 6 * i + 4));
    const due = flat(at(r2, 6 * i + 5));
    const row: RawQueue = {
      name,
      ready: Number(at(r2, 6 * i)),
      scheduled: Number(at(r2, 6 * i + 1)),
      running: Number(at(r2, 6 * i + 2)),
      expiredLeases: Number(at(r2, 6 * i + 3)),
      nextDueMs: due.length === 2 ? Number(due[1]) : null,
      heads: head.length === 2 ? [{ id: head[0]!, payload: null }] : [],
      approximate: false,
    };
    if (head.length === 2) hop.push([row, nextBand(Number(head[1]))]);
    return row;
  });
  // The head of each further priority band (the oldest task of each band is its head).
  for (let band = 1; band < opts.bands && hop.length; band++) {
    const p = client.pipeline();
    for (const [row, start] of hop) p.zrangebyscore(k.ready(row.name), start, '+inf', 'WITHSCORES', 'LIMIT', 0, 1);
    const r = ((await p.exec()) ?? []) as R;
    const next: Array<[RawQueue, number]> = [];
    hop.forEach(([row], i) => {
      const h = flat(at(r, i));
      if (h.length === 2) {
        row.heads.push({ id: h[0]!, payload: null });
        next.push([row, nextBand(Number(h[1]))]);
      }
    });
    hop = next;
  }
  for (const [row] of hop) row.approximate = true;
  // Last: the heads' payloads.
  const heads = queues.flatMap((q) => q.heads);
  const p3 = client.pipeline();
  for (const h of heads) p3.hget(k.job(h.id), 'p');
  const r3 = (heads.length ? ((await p3.exec()) ?? []) : []) as R;
  heads.forEach((h, i) => {
    const raw = at(r3, i);
    h.payload = typeof raw === 'string' ? raw : null;
  });
  return { queues, queuesCapped: card > opts.maxQueues, deadTotal, nowMs: now };
}
