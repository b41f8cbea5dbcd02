import 'server-only';
import { Pool } from 'pg';
import { ADDED_COLUMNS, cappedFlags, LEASE, SERIES_SQL, seriesArgs, seriesOf, trendSchema, type TrendStore } from './store-sql';
import { guardPool } from '@/lib/pool-guard';

// Samples in a PostgreSQL state store shared by several console instances. The lease compares
// against the database's clock, so instances whose clocks disagree still agree on who holds it.

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};
const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
const TABLES = ['console_trend_samples', 'console_trend_samples_at', 'console_leases'];

export function createPostgresTrendStore(url: string): TrendStore {
  const pool = guardPool(new Pool({ connectionString: url, max: 2 }), 'trends');
  let ready: Promise<void> | null = null;
  // As the audit store: no DDL when every object exists; else one statement at a time under an
  // advisory lock (two instances starting together would otherwise race on CREATE TABLE).
  const ensure = () =>
    (ready ??= (async () => {
      const c = await pool.connect();
      try {
        const have = await c.query<{ n: string }>('SELECT count(to_regclass(name)) AS n FROM unnest($1::text[]) AS name', [TABLES]);
        if (Number(have.rows[0]!.n) === TABLES.length) return;
        await c.query('SELECT pg_advisory_lock(727274002)');
        try {
          for (const s of trendSchema('BIGINT', 'DOUBLE PRECISION')) await c.query(s);
          for (const col of ADDED_COLUMNS) await c.query(`ALTER TABLE console_trend_samples ADD COLUMN IF NOT EXISTS ${col} BIGINT`);
        } finally {
          await c.query('SELECT pg_advisory_unlock(727274002)').catch(() => {});
        }
      } finally {
        c.release();
      }
    })().catch((e) => {
      ready = null;
      throw e;
    }));
  const q = async <R extends object>(sql: string, args: unknown[]) => {
    await ensure();
    return pool.query<R>(sql, args);
  };
  return {
    async lease(holder, ttlMs) {
      const r = await q(
        `INSERT INTO console_leases (name, holder, expires_ms) VALUES ($1, $2, ${NOW_MS} + $3)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms
         WHERE console_leases.holder = excluded.holder OR console_leases.expires_ms < ${NOW_MS}
         RETURNING holder`,
        [LEASE, holder, Math.round(ttlMs)],
      );
      return r.rowCount === 1;
    },
    async release(holder) {
      await q('DELETE FROM console_leases WHERE name = $1 AND holder = $2', [LEASE, holder]);
    },
    async leaseHolder() {
      const r = await q<{ holder: string }>(`SELECT holder FROM console_leases WHERE name = $1 AND expires_ms >= ${NOW_MS}`, [LEASE]);
      return r.rows[0]?.holder ?? null;
    },
    async write(rows) {
      if (!rows.length) return 0;
      const r = await q(
        `INSERT INTO console_trend_samples (broker, queue, at_ms, depth, oldest_s, dead, depth_capped, dead_capped)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::float8[], $6::bigint[], $7::bigint[], $8::bigint[])
         ON CONFLICT (broker, queue, at_ms) DO NOTHING`,
        [
          rows.map((x) => x.broker),
          rows.map((x) => x.queue),
          rows.map((x) => x.atMs),
          rows.map((x) => x.depth),
          rows.map((x) => x.oldestSeconds),
          rows.map((x) => x.dead),
          rows.map((x) => cappedFlags(x)[0]),
          rows.map((x) => cappedFlags(x)[1]),
        ],
      );
      return r.rowCount ?? 0;
    },
    async read(s) {
      const r = await q<Parameters<typeof seriesOf>[1][number]>(numbered(SERIES_SQL), seriesArgs(s));
      return seriesOf(s, r.rows);
    },
    async prune(beforeMs) {
      return (await q('DELETE FROM console_trend_samples WHERE at_ms < $1', [beforeMs])).rowCount ?? 0;
    },
    async close() {
      await pool.end();
    },
  };
}
