import 'server-only';
import { borrowOrOpen, type SqliteHandle } from '@/lib/state/handle';
import { cappedFlags, LEASE, SERIES_SQL, seriesArgs, seriesOf, type TrendStore } from './store-sql';

// Samples in the console's SQLite state file (one console instance, or several on one machine
// sharing the file: the lease works for them too, SQLite serialises the upsert).

/** On the state store's handle, or on a file of its own (`file`, closed by `close`). */
export function createSqliteTrendStore(file: string | SqliteHandle, now: () => number = Date.now): TrendStore {
  const { handle, owned } = borrowOrOpen(file, 'sqlite');
  const db = handle.db;
  const lease = db.prepare(
    `INSERT INTO console_leases (name, holder, expires_ms) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms
     WHERE console_leases.holder = excluded.holder OR console_leases.expires_ms < ?
     RETURNING holder`,
  );
  const insert = db.prepare(
    `INSERT INTO console_trend_samples (broker, queue, at_ms, depth, oldest_s, dead, depth_capped, dead_capped) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (broker, queue, at_ms) DO NOTHING`,
  );
  const series = db.prepare(SERIES_SQL);
  return {
    async lease(holder, ttlMs) {
      const t = now();
      return lease.get(LEASE, holder, t + ttlMs, t) !== undefined;
    },
    async release(holder) {
      db.prepare('DELETE FROM console_leases WHERE name = ? AND holder = ?').run(LEASE, holder);
    },
    async leaseHolder() {
      const r = db.prepare('SELECT holder FROM console_leases WHERE name = ? AND expires_ms >= ?').get(LEASE, now()) as
        { holder: string } | undefined;
      return r?.holder ?? null;
    },
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
