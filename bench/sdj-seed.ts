// The live-shaped Simple Durable Jobs seed for `npm run bench:sdj`: N jobs inserted the way the
// Go API's enqueue writes them (UUIDv7 ids, '' in the text columns, created_at spread over a
// week), then moved through the library's transitions by UPDATE, in the order a FIFO fleet
// makes them (docs/systems/simple-durable-jobs.md, "Statuses and transitions"): the oldest 70%
// claimed and then completed or failed for good (every 7th: 10% of N dead letters, with the
// library's reason expression), 2% running (a few with a stale lock), 2% claimed and failed back
// to pending with a retry `run_at`, 1% cancelled, the newest 25% still pending. Set-based SQL in
// chunks of rows (generate_series on PostgreSQL, a recursive CTE on MySQL), one statement per
// chunk and step, autocommit. No VACUUM or OPTIMIZE: every UPDATE leaves its old row version and
// index entries behind as a live system does (PostgreSQL's autovacuum is off on `jobs` while the
// benchmark runs, so the shape holds; `ANALYZE` at the end, as autoanalyze would).
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Dialect } from '@/tests/sdj/databases';

export const QUEUES = 20;
export const queueName = (k: number) => `bench-q${String(k).padStart(2, '0')}`;
export const PAUSED_QUEUES = [queueName(3), queueName(17)];
const DAY_MS = 86_400_000;
const SPAN_MS = 7 * DAY_MS;

const OK_TYPES = ['send-email', 'resize-image', 'index-document', 'notify-slack', 'compute-invoice', 'refresh-cache'];
/** The dead letters' types and errors (last_error as the library stores it); the first two ran out of runs (max_retries 1). */
const FAILURES: readonly (readonly [string, string])[] = [
  ['charge-card', 'stripe: card_declined (402)'],
  ['render-report', 'render: context deadline exceeded'],
  ['sync-crm', 'no retry: crm: 422 invalid contact email'],
  ['send-webhook', 'no handler for send-webhook'],
  ['legacy-import', 'no retry: legacy-import: parse row: unexpected EOF'],
];

export interface SeedPlan {
  jobs: number;
  /** Row-number bounds of each block, oldest first. */
  oldEnd: number;
  runEnd: number;
  retryEnd: number;
  cancelEnd: number;
  dead: number;
  /** Running jobs claimed three hours ago with no heartbeat since (the first of the running block). */
  stale: number;
  baseMs: number;
}

export function planSeed(jobs: number, nowMs = Date.now()): SeedPlan {
  const oldEnd = Math.floor(jobs * 0.7);
  return {
    jobs,
    oldEnd,
    runEnd: Math.floor(jobs * 0.72),
    retryEnd: Math.floor(jobs * 0.74),
    cancelEnd: Math.floor(jobs * 0.75),
    dead: Math.ceil(oldEnd / 7),
    stale: Math.min(500, Math.floor((Math.floor(jobs * 0.72) - oldEnd) / 4)),
    baseMs: nowMs - SPAN_MS - DAY_MS,
  };
}

/** One connection for the whole seed (MySQL's recursion depth is a session setting). */
interface Conn {
  q(sql: string, params?: unknown[]): Promise<number>;
  end(): Promise<void>;
}

async function connect(dialect: Dialect, url: string): Promise<Conn> {
  if (dialect === 'postgres') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`SET TIME ZONE 'UTC'`);
    return {
      q: async (sql, p = []) => {
        let n = 0;
        return (
          (
            await c.query(
              sql.replace(/\?/g, () => `$${++n}`),
              p,
            )
          ).rowCount ?? 0
        );
      },
      end: () => c.end(),
    };
  }
  const c = await mysql.createConnection({ uri: url, timezone: 'Z' });
  await c.query(`SET time_zone = '+00:00', SESSION cte_max_recursion_depth = 1000000`);
  return {
    q: async (sql, p = []) => ((await c.query(sql, p))[0] as { affectedRows?: number }).affectedRows ?? 0,
    end: () => c.end(),
  };
}

export async function seedSdj(dialect: Dialect, url: string, plan: SeedPlan, log: (s: string) => void): Promise<void> {
  const c = await connect(dialect, url);
  const pgsql = dialect === 'postgres';
  const chunk = pgsql ? 100_000 : 50_000;
  const N = plan.jobs;
  const msOf = (i: number) => plan.baseMs + Math.floor((i * SPAN_MS) / N);
  const at = (i: number) => {
    const s = new Date(msOf(i)).toISOString().replace('T', ' ').replace('Z', '');
    return pgsql ? `${s}+00` : s;
  };
  const plus = (e: string, secs: number) => (pgsql ? `${e} + INTERVAL '${secs} seconds'` : `${e} + INTERVAL ${secs} SECOND`);
  const now = pgsql ? 'NOW()' : 'NOW(3)';
  const cat = (...xs: string[]) => (pgsql ? xs.join(' || ') : `CONCAT(${xs.join(', ')})`);
  const sqlText = (s: string) => `'${s.replaceAll("'", "''")}'`;
  /** Runs `sql` (with `created_at >= ? AND created_at < ?` last) over [from, to) in chunks. */
  const steps = async (what: string, from: number, to: number, sql: string, params: unknown[] = []) => {
    const t0 = Date.now();
    let rows = 0;
    for (let a = from; a < to; a += chunk) {
      const b = Math.min(to, a + chunk);
      rows += await c.q(`${sql} AND created_at >= ? AND created_at < ?`, [...params, at(a), b === N ? at(N + 1) : at(b)]);
    }
    log(`    ${what}: ${rows.toLocaleString()} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  };
  try {
    if (pgsql) await c.q('ALTER TABLE jobs SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)');
    // 1. Enqueue, oldest first. The fate of row i is fixed by its number: dead letters are
    //    every 7th of the oldest block, with the failing types and max_retries 1 or 3.
    const failing = `i < ${plan.oldEnd} AND i % 7 = 0`;
    const failType = `CASE (i / 7) % 5 ${FAILURES.map(([t], k) => `WHEN ${k} THEN ${sqlText(t)}`).join(' ')} END`;
    const okType = `CASE i % 6 ${OK_TYPES.map((t, k) => `WHEN ${k} THEN ${sqlText(t)}`).join(' ')} END`;
    const idHex = pgsql
      ? `lpad(to_hex(ms), 12, '0') || '7' || substr(h, 1, 3) || '8' || lpad(to_hex(i), 6, '0') || substr(h, 4, 9)`
      : `CONCAT(LPAD(HEX(ms), 12, '0'), '7', SUBSTR(h, 1, 3), '8', LPAD(HEX(i), 6, '0'), SUBSTR(h, 4, 9))`;
    const args = cat(
      `'{"order":"o-'`,
      pgsql ? 'i::text' : 'i',
      `'","customer":'`,
      pgsql ? '(i % 9973)::text' : 'i % 9973',
      `',"note":"${'x'.repeat(120)}"}'`,
    );
    const cols = `id, type, args, queue, tenant, priority, status, previous_status, attempt, max_retries, timeout, determinism,
      last_error, dead_letter_reason, created_at, updated_at, locked_by, unique_key, dq_ready, fan_out_index`;
    const select = `SELECT ${pgsql ? `(${idHex})::uuid` : `UNHEX(${idHex})`},
        CASE WHEN ${failing} THEN ${failType} ELSE ${okType} END,
        ${pgsql ? `convert_to(${args}, 'UTF8')` : args},
        ${cat("'bench-q'", pgsql ? `lpad((i % ${QUEUES})::text, 2, '0')` : `LPAD(i % ${QUEUES}, 2, '0')`)},
        '', i % 4, 'pending', '', 0, CASE WHEN ${failing} THEN (CASE WHEN (i / 7) % 5 < 2 THEN 1 ELSE 3 END) ELSE 2 END, 0, 0,
        '', '', ts, ts, '', '', true, 0`;
    const t0 = Date.now();
    for (let a = 0; a < N; a += chunk) {
      const b = Math.min(N, a + chunk) - 1;
      if (pgsql)
        await c.q(
          `INSERT INTO jobs (${cols}) ${select}
           FROM (SELECT i, ${plan.baseMs}::bigint + (i::bigint * ${SPAN_MS}) / ${N} AS ms, md5(i::text) AS h FROM generate_series(${a}, ${b}) i) s,
           LATERAL (SELECT TIMESTAMPTZ 'epoch' + ms * INTERVAL '1 millisecond' AS ts) t`,
        );
      else
        await c.q(
          `INSERT INTO jobs (${cols})
           WITH RECURSIVE s(i) AS (SELECT ${a} UNION ALL SELECT i + 1 FROM s WHERE i < ${b})
           ${select.replaceAll('i / 7', 'i DIV 7')}
           FROM (SELECT i, ms, h, TIMESTAMPADD(MICROSECOND, ms * 1000, '1970-01-01 00:00:00') AS ts
                 FROM (SELECT i, ${plan.baseMs} + (i * ${SPAN_MS}) DIV ${N} AS ms, SHA2(i, 256) AS h FROM s) x) y`,
        );
    }
    log(`    enqueue: ${N.toLocaleString()} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    // 2. Claims, as `dequeueOnce` writes them (worker ids by chunk, as fleets take turns).
    const claim = (start: string) =>
      `UPDATE jobs SET status = 'running', locked_by = ?, locked_until = ${plus(start, 2700)}, started_at = ${start},
         attempt = attempt + 1, last_heartbeat_at = NULL, updated_at = ${start} WHERE status = 'pending'`;
    await steps('claim (oldest 70%)', 0, plan.oldEnd, claim(plus('created_at', 1)), ['bench-worker-1']);
    await steps('claim (retried block)', plan.runEnd, plan.retryEnd, claim(plus('created_at', 1)), ['bench-worker-2']);
    await steps('claim, long ago (stale locks)', plan.oldEnd, plan.oldEnd + plan.stale, claim(plus(now, -3 * 3600)), ['bench-worker-gone']);
    await steps('claim (running now)', plan.oldEnd + plan.stale, plan.runEnd, claim(plus(now, -600)), ['bench-worker-3']);
    // 3. Heartbeats of the live running jobs.
    await steps(
      'heartbeat',
      plan.oldEnd + plan.stale,
      plan.runEnd,
      `UPDATE jobs SET locked_until = ${plus(now, 2700)}, last_heartbeat_at = ${plus(now, -60)} WHERE status = 'running' AND locked_by = ?`,
      ['bench-worker-3'],
    );
    // 4. Terminal failures: the library's deadLetterReasonExpr over the error it stores.
    const err = `CASE type ${FAILURES.map(([t, e]) => `WHEN ${sqlText(t)} THEN ${sqlText(e)}`).join(' ')} END`;
    const done = plus('started_at', 2);
    await steps(
      'fail for good (dead letters)',
      0,
      plan.oldEnd,
      `UPDATE jobs SET status = 'failed', completed_at = ${done}, dead_lettered_at = ${done}, last_error = ${err}, locked_by = '',
         locked_until = NULL, updated_at = ${done},
         dead_letter_reason = CASE WHEN attempt >= max_retries THEN ${cat("'max retries exhausted: '", err)} ELSE ${cat("'non-retryable failure: '", err)} END
       WHERE status = 'running' AND type IN (${FAILURES.map(([t]) => sqlText(t)).join(', ')})`,
    );
    // 5. Completions.
    await steps(
      'complete',
      0,
      plan.oldEnd,
      `UPDATE jobs SET status = 'completed', completed_at = ${done}, result = ?, locked_by = '', locked_until = NULL, updated_at = ${done}
       WHERE status = 'running'`,
      [Buffer.from('{"ok":true}')],
    );
    // 6. Retryable failures: back to pending with a retry run_at.
    await steps(
      'fail and retry',
      plan.runEnd,
      plan.retryEnd,
      `UPDATE jobs SET status = 'pending', run_at = ${plus(now, 300)}, last_error = 'send-email: 503 upstream unavailable', locked_by = '',
         locked_until = NULL, updated_at = ${plus('started_at', 2)} WHERE status = 'running'`,
    );
    // 7. Cancelled while pending (CancelJobTerminal).
    await steps(
      'cancel',
      plan.retryEnd,
      plan.cancelEnd,
      `UPDATE jobs SET status = 'cancelled', completed_at = ${now}, updated_at = ${now}, last_error = 'cancelled by user' WHERE status = 'pending'`,
    );
    for (const q of PAUSED_QUEUES)
      await c.q(`INSERT INTO queue_states (queue, paused, paused_at, paused_by, updated_at) VALUES (?, true, ${now}, 'ops', ${now})`, [q]);
    const t1 = Date.now();
    await c.q(pgsql ? 'ANALYZE jobs' : 'ANALYZE TABLE jobs');
    log(`    ANALYZE: ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  } finally {
    await c.end().catch(() => undefined);
  }
}
