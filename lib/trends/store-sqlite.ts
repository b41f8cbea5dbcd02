import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ADDED_COLUMNS, cappedFlags, LEASE, SERIES_SQL, seriesArgs, seriesOf, trendSchema, type TrendStore } from './store-sql';

// Samples in the console's SQLite state file (one console instance, or several on one machine
// sharing the file: the lease works for them too, SQLite serialises the upsert).

export function createSqliteTrendStore(file: string, now: () => number = Date.now): TrendStore {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  for (const s of trendSchema('INTEGER', 'REAL')) db.exec(s);
  // A state file from before a column existed (SQLite has no ADD COLUMN IF NOT EXISTS).
  const has = new Set((db.prepare('PRAGMA table_info(console_trend_samples)').all() as Array<{ name: string }>).map((c) => c.name));
  for (const c of ADDED_COLUMNS) if (!has.has(c)) db.exec(`ALTER TABLE console_trend_samples ADD COLUMN ${c} INTEGER`);
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
      db.close();
    },
  };
}
