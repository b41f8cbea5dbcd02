import 'server-only';
import { borrowOrOpen, type PostgresHandle } from '@/lib/state/handle';
import { createLeases } from '@/lib/state/leases';
import { sqlOf } from '@/lib/state/sql';
import { cappedFlags, LEASE, SERIES_SQL, seriesArgs, seriesOf, type TrendStore } from './store-sql';

// Samples in a PostgreSQL state store shared by several console instances. The lease compares
// against the database's clock, so instances whose clocks disagree still agree on who holds it.

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** On the state store's pool, or on a pool of its own for `url` (ended by `close`). */
export function createPostgresTrendStore(url: string | PostgresHandle): TrendStore {
  const { handle, owned } = borrowOrOpen(url, 'postgres');
  const pool = handle.pool;
  const ensure = () => handle.ready();
  const q = async <R extends object>(sql: string, args: unknown[]) => {
    await ensure();
    return pool.query<R>(sql, args);
  };
  const sql = sqlOf(handle);
  // The sampler's lease is the state store's one lease primitive, on the database's clock.
  const leases = createLeases(
    {
      run: async (s, p) => {
        await ensure();
        return sql.run(s, p);
      },
      all: async <T>(s: string, p: unknown[]) => {
        await ensure();
        return sql.all<T>(s, p);
      },
    },
    'database',
  );
  return {
    lease: (holder, ttlMs) => leases.claim(LEASE, holder, ttlMs),
    release: (holder) => leases.release(LEASE, holder),
    leaseHolder: () => leases.holder(LEASE),
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
      if (owned) await handle.close();
    },
  };
}
