import 'server-only';
import { PRIORITY_STEPS } from './keys';
import { readAt, walkQueue, type ListReader } from './lists';
import { HEADS, type ReadBudget } from './read-profile';

/**
 * Waiting vs future-ETA messages of a queue, kept between overviews so that a poll reads only
 * what changed. Kombu's producers LPUSH and workers BRPOP the right end, so between two polls a
 * bucket's first `k` messages (from the right) are gone and new ones are further left. Per
 * bucket the walk's ids, ETAs and task names are kept; a poll reads the message now at the right
 * end (one LINDEX-like read per non-empty bucket): when the kept walk holds it at position `k`, the
 * first `k` are dropped and the walk goes on from where the kept part ends, up to `cap` — in a
 * steady backlog, the `k` messages taken since. Anything else (a restore pushed to the right end,
 * a list emptied and refilled, the message not among those kept) walks the bucket again, and so
 * does a walk REWALK_MS old (what a removal from the middle, say by LREM, can
 * leave wrong until then; one bucket per poll, the oldest, so that no poll walks them all). The
 * console's own removals forget the queue (`forget`). The right ends are read for all buckets at
 * once (`readHeads`) before the walks, which go queue by queue under the poll's byte budget.
 */

export const REWALK_MS = 300_000;

interface Kept {
  ids: string[];
  etas: (number | null)[];
  tasks: (string | null)[];
  at: number;
}

export interface Split {
  read: number;
  future: number;
  tasks: Set<string>;
}

export class QueueSplits {
  private kept = new Map<string, Kept>();
  /** The id at the right end of each kept bucket, read for this poll by `readHeads`. */
  private heads = new Map<string, string | null>();
  /** Past REWALK_MS one bucket is walked again per poll (the oldest), not all at once. */
  private rewalk: string | null = null;
  readonly stats = { walked: 0, reused: 0 };

  /** Reads the message at the right end of every kept bucket, all at once (one round trip's
   *  worth of pipelined reads), for the `split` calls of this poll. */
  async readHeads(r: ListReader, sizes: Map<string, number[]>, now: number): Promise<void> {
    this.heads.clear();
    let oldest: [string, number] | null = null;
    const reads: Promise<void>[] = [];
    for (const [queue, bs] of sizes)
      PRIORITY_STEPS.forEach((step, b) => {
        const key = `${step}\n${queue}`;
        const k = this.kept.get(key);
        if (!k || !bs[b]) return;
        if (now - k.at >= REWALK_MS && (!oldest || k.at < oldest[1])) oldest = [key, k.at];
        reads.push(readAt(r, queue, { bucket: b, pos: 0 }, HEADS).then((h) => void this.heads.set(key, h?.id ?? null)));
      });
    this.rewalk = oldest?.[0] ?? null;
    await Promise.all(reads);
  }

  /** Forgets what was kept of `queue` (after the console removed messages from it). */
  forget(queue: string): void {
    for (const s of PRIORITY_STEPS) this.kept.delete(`${s}\n${queue}`);
  }

  /** The split of `queue`'s first `cap` messages in claim order, `sizes` its buckets' LLENs. */
  async split(r: ListReader, queue: string, sizes: number[], cap: number, budget: ReadBudget, now: number): Promise<Split> {
    const out: Split = { read: 0, future: 0, tasks: new Set() };
    for (let b = 0; b < PRIORITY_STEPS.length; b++) {
      const key = `${PRIORITY_STEPS[b]}\n${queue}`;
      const left = cap - out.read;
      if (!sizes[b] || left <= 0) {
        if (!sizes[b]) this.kept.delete(key);
        continue;
      }
      const k = await this.bucket(r, { queue, b, key, size: sizes[b] ?? 0 }, left, budget, now);
      for (let i = 0; i < k.ids.length && i < left; i++) {
        out.read += 1;
        const eta = k.etas[i];
        if (eta !== null && eta !== undefined && eta > now) out.future += 1;
        const t = k.tasks[i];
        if (t) out.tasks.add(t);
      }
    }
    return out;
  }

  private async bucket(
    r: ListReader,
    at: { queue: string; b: number; key: string; size: number },
    cap: number,
    budget: ReadBudget,
    now: number,
  ) {
    const { queue, b, key, size } = at;
    const old = this.kept.get(key);
    let base: Kept = { ids: [], etas: [], tasks: [], at: now };
    if (old && key !== this.rewalk) {
      const head = this.heads.has(key) ? this.heads.get(key) : (await readAt(r, queue, { bucket: b, pos: 0 }, HEADS))?.id;
      const k = head ? old.ids.indexOf(head) : -1;
      // More kept than the list now holds: something left from the middle; walk again.
      if (k >= 0 && old.ids.length - k <= size) {
        base = { ids: old.ids.slice(k), etas: old.etas.slice(k), tasks: old.tasks.slice(k), at: old.at };
        this.stats.reused += 1;
      }
    }
    if (base.ids.length === 0) this.stats.walked += 1;
    // Walked up to the bucket's length at this poll's LLEN: a kept walk that already holds it
    // all (a queue nobody took from or pushed to) costs no read, and a walk never reads into
    // the next bucket (a round trip per queue and bucket at thousands of queues).
    const want = Math.min(cap, size);
    if (base.ids.length < want) {
      for await (const it of walkQueue(r, queue, HEADS, budget, { bucket: b, pos: base.ids.length }, want - base.ids.length)) {
        if (it.bucket !== b) break;
        base.ids.push(it.id);
        base.etas.push(it.env.etaMs);
        base.tasks.push(it.env.info.task ?? null);
      }
    }
    this.kept.set(key, base);
    return base;
  }
}
