import 'server-only';
import type { Redis } from 'ioredis';
import type { Fingerprint } from '@/lib/triage/fingerprint';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import { reasonSummaryFull } from '@/lib/pyvalues/reason';
import { failureReason, parseRecord, resultKeys } from './results';

/**
 * What the result backend holds, kept between polls so that a poll does not read every record.
 * Celery's Redis backend keeps no index by state or time (one STRING per task), but it PUBLISHes
 * every record it writes on the record's own key name (celery/backends/redis.py `_set`). So:
 *
 * - Once: PSUBSCRIBE to the records' names, then SCAN + GET/PTTL every record (a reconcile).
 * - Every write after that arrives on the subscription with the record (new failures, successes,
 *   a failure replayed and then succeeding, the console's REVOKED records).
 * - Per read, one round trip each on two connections: a PING on the subscription (its answer comes
 *   after every record published before the read began: read-your-writes) and a pipeline of
 *   DBSIZE and the PTTL of records published since. Records leave when their TTL says. A key
 *   count that differs from what the index expects (a record deleted by `forget()`, a FLUSHDB, a
 *   record written without PUBLISH) runs a keys-only reconcile: SCAN, drop what is gone, read
 *   only the keys not known yet.
 * - Every RECONCILE_MS (5 min) a full reconcile (every record read again) runs in the background.
 * - Without a subscription (an ACL refusing PSUBSCRIBE, a lost connection) every read is a full
 *   reconcile, as before the index.
 *
 * Bounded: at most `cap` records are indexed (`capped` then; counts are lower bounds), each with
 * at most SUMMARY_KEPT units of its failure's last line and a fingerprint of bounded size.
 */

export const RESULT_INDEX_CAP = 200_000;
export const RECONCILE_MS = 300_000;
/** UTF-16 units of a failure's last line kept per record (the groups page's example): a record
 *  whose exception message is megabytes long costs the index this much, not the message. */
export const SUMMARY_KEPT = 2048;
const CHUNK = 500;

export interface IndexedResult {
  id: string;
  status: string;
  name: string | null;
  queue: string | null;
  doneMs: number | null;
  /** When the record expires (ms since the epoch); null: never. */
  expiresAt: number | null;
  /** FAILURE records only: what the error groups need. */
  fail: { summary: string; fp: Fingerprint } | null;
}

const byNewest = (a: IndexedResult, b: IndexedResult) => (b.doneMs ?? 0) - (a.doneMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class ResultIndex {
  private entries = new Map<string, IndexedResult>();
  private failuresSorted: IndexedResult[] | null = null;
  private sub: Redis | null = null;
  private subscribing: Promise<void> | null = null;
  private live = false;
  private fullAt = 0;
  /** Keys in the backend's db that the index does not hold (broker keys, records past the cap). */
  private others = 0;
  private nextExpiry = Infinity;
  /** Ids published while a reconcile runs: what it read of them may be older. */
  private touched: Set<string> | null = null;
  /** Published records whose TTL is not read yet. */
  private pendingTtl = new Set<string>();
  private reconciling: Promise<void> | null = null;
  capped = false;
  /** What the reads cost: reconciles run (full, keys-only) and records read by GET. */
  readonly stats = { full: 0, keysOnly: 0, recordsRead: 0 };

  constructor(
    private backend: Redis,
    prefix: string,
    private cap = RESULT_INDEX_CAP,
  ) {
    this.keys = resultKeys(prefix);
  }
  private keys: ReturnType<typeof resultKeys>;

  /** Brings the index up to date with everything written before this call. */
  async fresh(): Promise<void> {
    if (!this.subscribing) this.subscribing = this.subscribe();
    await this.subscribing;
    if (!this.live || this.fullAt === 0) return this.reconcile(true);
    // The TTLs of records published since the last read, with the key count, in one pipeline.
    const pending = [...this.pendingTtl].slice(0, 5000);
    const pipe = this.backend.pipeline().dbsize();
    for (const id of pending) pipe.pttl(this.keys.meta(id));
    const [, res] = await Promise.all([this.sub!.ping(), pipe.exec()]);
    const now = Date.now();
    pending.forEach((id, i) => {
      this.pendingTtl.delete(id);
      const ttl = Number(res?.[i + 1]?.[1] ?? -1);
      const e = this.entries.get(id);
      if (!e) return;
      if (ttl === -2) this.forget(id);
      else this.expireAt(e, ttl >= 0 ? now + ttl : null);
    });
    this.dropExpired(now);
    if (Number(res?.[0]?.[1]) !== this.entries.size + this.others) {
      // A record written between the PING and DBSIZE is counted before it is heard: ask again
      // after one more PING before reading the keys.
      await this.sub!.ping();
      if ((await this.backend.dbsize()) !== this.entries.size + this.others) await this.reconcile(false);
    }
    if (Date.now() - this.fullAt > RECONCILE_MS && !this.reconciling) void this.reconcile(true).catch(() => undefined);
  }

  /** FAILURE records, newest first (date_done DESC, id). Shared: callers must not change it. */
  failures(): readonly IndexedResult[] {
    this.failuresSorted ??= [...this.entries.values()].filter((e) => e.status === 'FAILURE').sort(byNewest);
    return this.failuresSorted;
  }

  /** Every record, newest first. */
  all(): IndexedResult[] {
    return [...this.entries.values()].sort(byNewest);
  }

  /** A record the console deleted (a discarded or replayed failure). */
  forget(id: string): void {
    this.pendingTtl.delete(id);
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    if (e.status === 'FAILURE') this.failuresSorted = null;
  }

  close(): void {
    this.sub?.disconnect();
    this.live = false;
  }

  private async subscribe(): Promise<void> {
    const sub = this.backend.duplicate();
    sub.on('error', () => undefined);
    sub.on('close', () => {
      // Writes may be missed until it is back: the next read reconciles in full.
      this.live = false;
      this.fullAt = 0;
    });
    sub.on('ready', () => {
      if (this.sub) this.live = true; // ioredis subscribes again on reconnect
    });
    sub.on('pmessage', (_p: string, channel: string, message: string) => this.published(channel, message));
    try {
      await sub.psubscribe(this.keys.pattern);
      this.sub = sub;
      this.live = true;
    } catch {
      sub.disconnect(); // refused (ACL) or unreachable: every read reconciles in full
    }
  }

  /** A record Celery (or the console) wrote: its TTL is read with the next read's pipeline
   *  (Celery's result_expires and result_failure_expires are the app's, not known here). */
  private published(channel: string, raw: string): void {
    const id = this.keys.idOf(channel);
    this.touched?.add(id);
    this.put(id, raw, null, true);
    if (this.entries.has(id)) this.pendingTtl.add(id);
  }

  private expireAt(e: IndexedResult, at: number | null): void {
    e.expiresAt = at;
    if (at !== null && at < this.nextExpiry) this.nextExpiry = at;
  }

  private put(id: string, raw: string, expiresAt: number | null, counted: boolean): void {
    const r = parseRecord(id, raw);
    const old = this.entries.get(id);
    if (!r) {
      if (old) this.forget(id);
      return;
    }
    if (!old && this.entries.size >= this.cap) {
      this.capped = true;
      if (counted) this.others += 1;
      return;
    }
    const reason = r.status === 'FAILURE' ? failureReason(r) : null;
    const fail = reason === null ? null : { summary: reasonSummaryFull(reason, SUMMARY_KEPT), fp: reasonFingerprint(reason) };
    const e: IndexedResult = { id, status: r.status, name: r.name, queue: r.queue, doneMs: r.dateDoneMs, expiresAt: null, fail };
    this.entries.set(id, e);
    this.expireAt(e, expiresAt);
    if (r.status === 'FAILURE' || old?.status === 'FAILURE') this.failuresSorted = null;
  }

  private dropExpired(now: number): void {
    if (now < this.nextExpiry) return;
    this.nextExpiry = Infinity;
    for (const e of this.entries.values()) {
      if (e.expiresAt === null) continue;
      if (e.expiresAt <= now) this.forget(e.id);
      else if (e.expiresAt < this.nextExpiry) this.nextExpiry = e.expiresAt;
    }
  }

  /** One reconcile at a time; a caller arriving during one waits for it, then runs its own
   *  if it wanted a full one and the running one is not. */
  private async reconcile(full: boolean): Promise<void> {
    while (this.reconciling) await this.reconciling.catch(() => undefined);
    this.reconciling = this.runReconcile(full).finally(() => (this.reconciling = null));
    return this.reconciling;
  }

  private async runReconcile(full: boolean): Promise<void> {
    const started = Date.now();
    this.touched = new Set();
    try {
      const seen = new Set<string>();
      let cursor = '0';
      do {
        const [next, batch] = await this.backend.scan(cursor, 'MATCH', this.keys.pattern, 'COUNT', 1000);
        cursor = next;
        for (const key of batch) seen.add(this.keys.idOf(key));
      } while (cursor !== '0');
      for (const id of [...this.entries.keys()]) if (!seen.has(id) && !this.touched.has(id)) this.forget(id);
      const toRead = [...seen].filter((id) => !this.touched!.has(id) && (full || !this.entries.has(id)));
      this.capped = false;
      for (let i = 0; i < toRead.length; i += CHUNK) {
        const chunk = toRead.slice(i, i + CHUNK);
        const pipe = this.backend.pipeline();
        for (const id of chunk) pipe.get(this.keys.meta(id)).pttl(this.keys.meta(id));
        const res = (await pipe.exec()) ?? [];
        this.stats.recordsRead += chunk.length;
        chunk.forEach((id, j) => {
          const raw = res[2 * j]?.[1];
          const ttl = Number(res[2 * j + 1]?.[1] ?? -1);
          if (typeof raw !== 'string' || this.touched!.has(id)) {
            if (raw === null) this.forget(id);
            return;
          }
          this.put(id, raw, ttl >= 0 ? Date.now() + ttl : null, false);
        });
      }
      if (this.entries.size >= this.cap && seen.size > this.entries.size) this.capped = true;
      this.others = (await this.backend.dbsize()) - this.entries.size;
      if (full) {
        this.fullAt = started;
        this.stats.full += 1;
      } else this.stats.keysOnly += 1;
    } finally {
      this.touched = null;
    }
  }
}
