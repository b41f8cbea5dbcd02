import 'server-only';
import type { SqlRunner } from './sql';

/**
 * The console's one lease primitive: a row of `console_leases` per named thing a console process
 * holds for a while (the trend sampler, a pause hold on a queue). Taking a free name is one
 * INSERT under its primary key, so of two processes sharing the store exactly one wins; the
 * holder renews `expiresMs` while it works; a lease whose expiry passed belongs to a holder
 * that is gone, and another process takes it over with one conditional UPDATE (again exactly
 * one wins). A holder is the process id (lib/state/process-id.ts). `data` is the holder's own
 * notes (JSON text), for whoever takes the lease over.
 *
 * Times are epoch ms. Most calls take them from the caller; `clock: 'database'` makes `claim`
 * and `holder` read PostgreSQL's clock instead, so instances whose clocks disagree still agree.
 */
export interface Lease {
  name: string;
  holder: string;
  expiresMs: number;
  /** When the holder took it (ISO). */
  startedAt: string | null;
  data: string | null;
}

export interface Leases {
  /** Takes `l.name` unless it has a lease, live or expired (an expired one is for `takeOver`). */
  acquire(l: Lease): Promise<boolean>;
  /** Takes `name` or renews `holder`'s, for `ttlMs`: only when free, `holder`'s, or expired. */
  claim(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Renews `holder`'s lease (and replaces its data when given); false when it is no longer theirs. */
  renew(name: string, holder: string, expiresMs: number, data?: string): Promise<boolean>;
  /** Hands `from`'s lease to `to` only if it expired before `nowMs`: true when it is now `to`'s. */
  takeOver(name: string, from: string, to: string, nowMs: number, expiresMs: number): Promise<boolean>;
  release(name: string, holder: string): Promise<void>;
  get(name: string): Promise<Lease | null>;
  /** The holder of a lease still running, if any. */
  holder(name: string): Promise<string | null>;
  /** The leases whose name starts with `prefix`, oldest first, at most `limit`. */
  list(prefix: string, limit: number): Promise<Lease[]>;
}

type Row = { name: string; holder: string; expires_ms: number | string; started_at: string | null; data: string | null };
const fromRow = (r: Row): Lease => ({
  name: r.name,
  holder: r.holder,
  expiresMs: Number(r.expires_ms),
  startedAt: r.started_at,
  data: r.data,
});
const COLS = 'name, holder, expires_ms, started_at, data';
const DB_NOW = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

export function createLeases(db: Pick<SqlRunner, 'run' | 'all'>, clock: (() => number) | 'database' = Date.now): Leases {
  // `now` as a placeholder and its argument, or PostgreSQL's clock.
  const now = (): [string, unknown[]] => (clock === 'database' ? [DB_NOW, []] : ['CAST(? AS BIGINT)', [Math.round(clock())]]);
  return {
    async acquire(l) {
      const n = await db.run(`INSERT INTO console_leases (${COLS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`, [
        l.name,
        l.holder,
        Math.round(l.expiresMs),
        l.startedAt,
        l.data,
      ]);
      return n === 1;
    },
    async claim(name, holder, ttlMs) {
      const [t1, a1] = now();
      const [t2, a2] = now();
      const r = await db.all(
        `INSERT INTO console_leases (${COLS}) VALUES (?, ?, ${t1} + ?, ?, NULL)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms,
           started_at = CASE WHEN console_leases.holder = excluded.holder THEN console_leases.started_at ELSE excluded.started_at END
         WHERE console_leases.holder = excluded.holder OR console_leases.expires_ms < ${t2}
         RETURNING holder`,
        [name, holder, ...a1, Math.round(ttlMs), new Date().toISOString(), ...a2],
      );
      return r.length === 1;
    },
    async renew(name, holder, expiresMs, data) {
      const n = await db.run('UPDATE console_leases SET expires_ms = ?, data = COALESCE(?, data) WHERE name = ? AND holder = ?', [
        Math.round(expiresMs),
        data ?? null,
        name,
        holder,
      ]);
      return n === 1;
    },
    async takeOver(name, from, to, nowMs, expiresMs) {
      const n = await db.run('UPDATE console_leases SET holder = ?, expires_ms = ? WHERE name = ? AND holder = ? AND expires_ms < ?', [
        to,
        Math.round(expiresMs),
        name,
        from,
        Math.round(nowMs),
      ]);
      return n === 1;
    },
    async release(name, holder) {
      await db.run('DELETE FROM console_leases WHERE name = ? AND holder = ?', [name, holder]);
    },
    async get(name) {
      const r = await db.all<Row>(`SELECT ${COLS} FROM console_leases WHERE name = ?`, [name]);
      return r[0] ? fromRow(r[0]) : null;
    },
    async holder(name) {
      const [t, a] = now();
      const r = await db.all<{ holder: string }>(`SELECT holder FROM console_leases WHERE name = ? AND expires_ms >= ${t}`, [name, ...a]);
      return r[0]?.holder ?? null;
    },
    async list(prefix, limit) {
      const r = await db.all<Row>(`SELECT ${COLS} FROM console_leases WHERE substr(name, 1, ?) = ? ORDER BY started_at, name LIMIT ?`, [
        prefix.length,
        prefix,
        limit,
      ]);
      return r.map(fromRow);
    },
  };
}
