import 'server-only';
import type { SqlRunner } from '@/lib/state/sql';

// The recorded deaths in the console's state store (tables in lib/state/steps.ts, `deaths-1`),
// the same SQL on SQLite and PostgreSQL. A death is a letter id with its died time: a task that
// dies, is replayed and dies again is two deaths; a letter seen again (a later tick, another
// console instance) is none. Seen rows are the dedupe and are kept a few hours; the minute
// buckets are what the chart reads and are kept as long as the trends.

export interface Death {
  id: string;
  diedMs: number;
  queue: string;
  /** The error's fingerprint (`fp-…`, the dead list's group), '' where none could be told. */
  fp: string;
}

export interface DeathQuery {
  broker: string;
  fromMs: number;
  bucketMs: number;
  buckets: number;
  queue?: string;
  group?: string;
}

export const MINUTE_MS = 60_000;
const ROWS = 200;
/** A death's key in `known`'s answer. */
export const deathKey = (id: string, diedMs: number) => `${diedMs}|${id}`;

export function createDeathStore(db: SqlRunner) {
  return {
    /** Which of `deaths` are already recorded, as `died|id` keys. */
    async known(broker: string, deaths: ReadonlyArray<Pick<Death, 'id' | 'diedMs'>>): Promise<Set<string>> {
      const out = new Set<string>();
      for (let i = 0; i < deaths.length; i += ROWS) {
        const chunk = deaths.slice(i, i + ROWS);
        const rows = await db.all<{ letter_id: string; died_ms: number | string }>(
          `SELECT letter_id, died_ms FROM console_dead_seen WHERE broker = ? AND letter_id IN (${chunk.map(() => '?').join(', ')})`,
          [broker, ...chunk.map((d) => d.id)],
        );
        for (const r of rows) out.add(deathKey(r.letter_id, Number(r.died_ms)));
      }
      return out;
    },

    /**
     * Records deaths not recorded yet and counts them into their minute, in one transaction:
     * the seen rows are inserted uncounted (a death already there is left alone), the uncounted
     * rows are added to the buckets and marked counted. Two instances recording one death count
     * it once (the second's insert waits for the first's row, then does nothing). Answers how
     * many deaths were new.
     */
    async record(broker: string, deaths: readonly Death[]): Promise<number> {
      if (!deaths.length) return 0;
      const steps: Array<readonly [string, unknown[]]> = [];
      for (let i = 0; i < deaths.length; i += ROWS) {
        const chunk = deaths.slice(i, i + ROWS);
        steps.push([
          `INSERT INTO console_dead_seen (broker, letter_id, died_ms, queue, fp, counted) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, 0)').join(', ')}
           ON CONFLICT (broker, letter_id, died_ms) DO NOTHING`,
          chunk.flatMap((d) => [broker, d.id, d.diedMs, d.queue, d.fp]),
        ]);
      }
      steps.push([
        `INSERT INTO console_dead_series (broker, queue, fp, minute_ms, n)
         SELECT broker, queue, fp, died_ms - (died_ms % ${MINUTE_MS}), COUNT(*) FROM console_dead_seen
         WHERE broker = ? AND counted = 0 GROUP BY 1, 2, 3, 4
         ON CONFLICT (broker, minute_ms, queue, fp) DO UPDATE SET n = console_dead_series.n + excluded.n`,
        [broker],
      ]);
      steps.push(['UPDATE console_dead_seen SET counted = 1 WHERE broker = ? AND counted = 0', [broker]]);
      const changed = await db.batch(steps);
      return changed.slice(0, -2).reduce((n, c) => n + c, 0);
    },

    /** Recorded deaths per bucket of the window (buckets are whole minutes), oldest first. */
    async read(q: DeathQuery): Promise<number[]> {
      const where = ['broker = ?', 'minute_ms >= ?', 'minute_ms < ?'];
      const params: unknown[] = [q.fromMs, q.bucketMs, q.broker, q.fromMs, q.fromMs + q.bucketMs * q.buckets];
      for (const [col, v] of [
        ['queue', q.queue],
        ['fp', q.group],
      ] as const)
        if (v !== undefined) {
          where.push(`${col} = ?`);
          params.push(v);
        }
      const rows = await db.all<{ b: unknown; n: unknown }>(
        `SELECT CAST((minute_ms - ?) / ? AS INTEGER) AS b, SUM(n) AS n FROM console_dead_series WHERE ${where.join(' AND ')} GROUP BY 1`,
        params,
      );
      const counts = new Array<number>(q.buckets).fill(0);
      for (const r of rows) {
        const b = Number(r.b);
        if (b >= 0 && b < q.buckets) counts[b] = Number(r.n);
      }
      return counts;
    },

    /** Forgets seen deaths that died before `seenBefore` and buckets before `seriesBefore`. */
    async prune(seenBefore: number, seriesBefore: number): Promise<number> {
      const a = await db.run('DELETE FROM console_dead_seen WHERE died_ms < ? AND counted = 1', [seenBefore]);
      const b = await db.run('DELETE FROM console_dead_series WHERE minute_ms < ?', [seriesBefore]);
      return a + b;
    },
  };
}
export type DeathStore = ReturnType<typeof createDeathStore>;
