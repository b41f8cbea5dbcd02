import 'server-only';
import type { PgNames } from './names';
import type { Sql } from './pool';

/** Row estimates the way the planner makes them for `state = S AND queue = Q`: the table's
 *  `reltuples` times the per-column selectivities from `pg_stats` (most common values, then
 *  the rest spread evenly over the other distinct values), assuming independence. */
export interface Estimator {
  jobs(state: number, queue?: string): number | null;
  dead(queue?: string): number | null;
}

export interface ColumnStats {
  n_distinct: number;
  null_frac: number;
  vals: string[] | null;
  freqs: number[] | null;
}

export function selectivity(s: ColumnStats | undefined, value: string, rows: number): number | null {
  if (!s) return null;
  const i = s.vals?.indexOf(value) ?? -1;
  if (i >= 0) return s.freqs?.[i] ?? null;
  const mcv = (s.freqs ?? []).reduce((a, b) => a + b, 0);
  const distinct = s.n_distinct < 0 ? -s.n_distinct * rows : s.n_distinct;
  const others = distinct - (s.vals?.length ?? 0);
  return others > 0 ? Math.max(0, 1 - mcv - s.null_frac) / others : 0;
}

async function tableStats(sql: Sql, table: string, columns: string[]) {
  const rows = await sql<ColumnStats & { reltuples: number; attname: string | null }>(
    `SELECT c.reltuples::float8 AS reltuples, s.attname, s.n_distinct::float8 AS n_distinct, s.null_frac::float8 AS null_frac,
            s.most_common_vals::text::text[] AS vals, s.most_common_freqs::float8[] AS freqs
     FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
     LEFT JOIN pg_stats s ON s.schemaname = ns.nspname AND s.tablename = c.relname AND s.attname = ANY($2::text[])
     WHERE c.oid = to_regclass($1)`,
    [table, columns],
  );
  const reltuples = rows[0]?.reltuples ?? -1;
  const by = new Map(rows.filter((r) => r.attname).map((r) => [r.attname!, r]));
  return { rows: reltuples < 0 ? null : reltuples, by };
}

export async function loadEstimator(sql: Sql, n: PgNames): Promise<Estimator> {
  const [jobs, dead] = [await tableStats(sql, n.jobs, ['state', 'queue']), await tableStats(sql, n.dead, ['queue'])];
  const est = (t: typeof jobs, parts: Array<[string, string]>): number | null => {
    if (t.rows === null) return null;
    let sel = 1;
    for (const [col, v] of parts) {
      const s = selectivity(t.by.get(col), v, t.rows);
      if (s === null) return null;
      sel *= s;
    }
    return Math.round(t.rows * sel);
  };
  return {
    jobs: (state, queue) =>
      est(
        jobs,
        queue === undefined
          ? [['state', String(state)]]
          : [
              ['state', String(state)],
              ['queue', queue],
            ],
      ),
    dead: (queue) => est(dead, queue === undefined ? [] : [['queue', queue]]),
  };
}
