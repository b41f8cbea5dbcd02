import 'server-only';
import { isLockTimeout, isoOf, type SdjDb } from './db';
import { isSdjStatus, SDJ_STATUSES, type SdjStatus } from './model';

// The queue overview: counts per queue and SDJ status, the oldest pending job's age, and which
// queues are paused. The counts are the library dashboard's own `GROUP BY queue, status`: no
// index the library creates holds both columns, so it reads every row (see the doc's "How the
// console operates it"); the work is bounded by a statement deadline, and counts the deadline cut
// short are null ("unknown"), never zero.

export interface SdjQueueRow {
  queue: string;
  counts: Record<SdjStatus, number> | null;
  /** Dead letters (`dead_lettered_at` set), counted in the same pass; null with the counts. */
  dead: number | null;
  /** Rows in a status outside the seven (`retrying` is allowed by the CHECK, never written). */
  other: Record<string, number>;
  /** `MIN(created_at)` of pending rows, as the library's dashboard measures it. */
  oldestPendingAt: string | null;
  oldestPendingAgeSeconds: number | null;
  paused: boolean;
  pausedAt: string | null;
  pausedBy: string | null;
}

export interface SdjOverview {
  queues: SdjQueueRow[];
  /** The database's clock when read (ages are measured on it, like the library's timestamps). */
  now: string;
  /** Why counts are null, when they are. */
  countsUnknown: string | null;
}

const zero = () => Object.fromEntries(SDJ_STATUSES.map((s) => [s, 0])) as Record<SdjStatus, number>;

const isTimeout = (e: unknown) => {
  const err = e as { code?: string; errno?: number };
  return err?.code === '57014' || err?.errno === 3024;
};

/** `sql` under a statement deadline (PostgreSQL `statement_timeout`, MySQL `MAX_EXECUTION_TIME`). */
async function bounded(db: SdjDb, sql: string, ms: number) {
  if (db.dialect === 'mysql') return db.all(sql.replace(/^SELECT /, `SELECT /*+ MAX_EXECUTION_TIME(${ms}) */ `));
  return db.tx(async (q) => {
    await q.run(`SET LOCAL statement_timeout = ${ms}`);
    return q.all(sql);
  });
}

export async function readOverview(db: SdjDb, opts: { timeoutMs?: number } = {}): Promise<SdjOverview> {
  const ms = Math.max(100, Math.round(opts.timeoutMs ?? 10_000));
  const now = db.dialect === 'postgres' ? 'NOW()' : 'NOW(6)';
  const [clock] = await db.all(`SELECT ${now} AS now`);
  const paused = await db.all('SELECT queue, paused_at, paused_by FROM queue_states WHERE paused = true');
  let counts: Record<string, unknown>[] | null = null;
  let oldest: Record<string, unknown>[] | null = null;
  let countsUnknown: string | null = null;
  try {
    counts = await bounded(db, 'SELECT queue, status, COUNT(*) AS n, COUNT(dead_lettered_at) AS dead FROM jobs GROUP BY queue, status', ms);
    oldest = await bounded(
      db,
      `SELECT queue, MIN(created_at) AS oldest, ${db.dialect === 'postgres' ? 'EXTRACT(EPOCH FROM (NOW() - MIN(created_at)))' : 'TIMESTAMPDIFF(MICROSECOND, MIN(created_at), NOW(6)) / 1000000'} AS age FROM jobs WHERE status = 'pending' GROUP BY queue`,
      ms,
    );
  } catch (e) {
    if (isLockTimeout(e)) countsUnknown = 'another session holds the jobs table locked: counts are unknown for now';
    else if (isTimeout(e)) countsUnknown = `counting every job took longer than ${ms} ms (no index covers queue and status together)`;
    else throw e;
    counts = null;
    oldest = null;
  }
  const byQueue = new Map<string, SdjQueueRow>();
  const row = (queue: string) => {
    let r = byQueue.get(queue);
    if (!r) {
      r = {
        queue,
        counts: counts ? zero() : null,
        dead: counts ? 0 : null,
        other: {},
        oldestPendingAt: null,
        oldestPendingAgeSeconds: null,
        paused: false,
        pausedAt: null,
        pausedBy: null,
      };
      byQueue.set(queue, r);
    }
    return r;
  };
  for (const c of counts ?? []) {
    const r = row(String(c.queue));
    const status = String(c.status);
    if (r.dead !== null) r.dead += Number(c.dead ?? 0);
    if (isSdjStatus(status) && r.counts) r.counts[status] = Number(c.n);
    else r.other[status] = Number(c.n);
  }
  for (const o of oldest ?? []) {
    const r = row(String(o.queue));
    r.oldestPendingAt = isoOf(o.oldest);
    r.oldestPendingAgeSeconds = o.age === null || o.age === undefined ? null : Math.max(0, Number(o.age));
  }
  for (const p of paused)
    Object.assign(row(String(p.queue)), { paused: true, pausedAt: isoOf(p.paused_at), pausedBy: p.paused_by ? String(p.paused_by) : null });
  const queues = [...byQueue.values()].sort((a, b) => (a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0));
  return { queues, now: isoOf(clock?.now) ?? '', countsUnknown };
}
