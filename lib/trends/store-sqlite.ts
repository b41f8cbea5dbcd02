import 'server-only';
import { borrowOrOpen, type SqliteHandle } from '@/lib/state/handle';
import { createLeases } from '@/lib/state/leases';
import { sqlOf } from '@/lib/state/sql';
import { cappedFlags, LEASE, SERIES_SQL, seriesArgs, seriesOf, type TrendStore } from './store-sql';

// Samples in the console's SQLite state file (one console instance, or several on one machine
// sharing the file: the lease works for them too, SQLite serialises the upsert).

/** On the state store's handle, or on a file of its own (`file`, closed by `close`). */
export function createSqliteTrendStore(file: string | SqliteHandle, now: () => number = Date.now): TrendStore {
  const { handle, owned } = borrowOrOpen(file, 'sqlite');
  const db = handle.db;
  // The sampler's lease is the state store's one lease primitive, on this clock.
  const leases = createLeases(sqlOf(handle), now);
  const insert = db.prepare(
    `INSERT INTO console_trend_samples (broker, queue, at_ms, depth, oldest_s, dead, depth_capped, dead_capped) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (broker, queue, at_ms) DO NOTHING`,
  );
  const series = db.prepare(SERIES_SQL);
  return {
    lease: (holder, ttlMs) => leases.claim(LEASE, holder, ttlMs),
    release: (holder) => leases.release(LEASE, holder),
    leaseHolder: () => leases.holder(LEASE),
    async write(rows) {
      return db.transaction(() =>
        rows.reduce((n, r) => n + insert.run(r.broker, r.queue, r.atMs, r.depth, r.oldestSeconds, r.dead, ...cappedFlags(r)).changes, 0),
      )();
    },
    async read(q) {
      return seriesOf(q, series.all(...seriesArgs(q)) as Parameters<typeof seriesOf>[1]);
    },
    async prune(beforeMs) {
      return db.prepare('DELETE FROM console_trend_samples WHERE at_ms < ?').run(beforeMs).changes;
    },
    async close() {
      if (owned) await handle.close();
    },
  };
}
