import 'server-only';
import type Database from 'better-sqlite3';
import type { Page, ResultListQuery, ResultSummary, WorkerInfo } from '@/lib/brokers/schema';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { isoFromEpoch, mapResult, registeredNames } from '../mappers';
import { Where } from './sql';
import { type Liveness, parseHeartbeatInfo, registeredDigest, REGISTERED_PREFIX, toWorkerInfo } from '../heartbeats';
import { foldSightings } from '@/lib/brokers/task-queues';
import { IX } from './reads-overview';

export function listWorkers(db: Database.Database, live: Liveness, now = Date.now() / 1000): WorkerInfo[] {
  const rows = db.prepare('SELECT id, heartbeat, info FROM potatoq_workers ORDER BY id').all() as Array<{
    id: string;
    heartbeat: number;
    info: string | null;
  }>;
  const registered = new Map<string, string[] | null>();
  const lookup = db.prepare('SELECT payload FROM potatoq_results WHERE id = ?').pluck();
  return rows.map((r) => {
    const info = parseHeartbeatInfo(r.info);
    const digest = registeredDigest(info);
    if (digest !== null && !registered.has(digest)) {
      const payload = lookup.get(REGISTERED_PREFIX + digest) as string | undefined;
      registered.set(digest, payload === undefined ? null : registeredNames(payload));
    }
    return toWorkerInfo({
      id: r.id,
      info,
      heartbeatIso: isoFromEpoch(r.heartbeat),
      ageSeconds: now - Number(r.heartbeat),
      live,
      registered: digest === null ? null : (registered.get(digest) ?? null),
    });
  });
}

/** Results newest first by expiry (potatoq sets `expires_at` = store time + result_expires). */
export function listResults(db: Database.Database, q: ResultListQuery): Page<ResultSummary> {
  const scope = 'results';
  const where = new Where()
    .add(`substr(id, 1, ${REGISTERED_PREFIX.length}) != '${REGISTERED_PREFIX}'`)
    .add(`substr(id, 1, 6) != 'group:'`)
    .addIf(q.status, 'state = ?', q.status);
  const after = decodeCursor(scope, q.cursor, 3);
  if (after) where.add('(coalesce(expires_at, -1) < ? OR (coalesce(expires_at, -1) = ? AND id > ?))', ...after);
  const rows = db
    .prepare(
      `SELECT id, state, CASE WHEN length(payload) <= 65536 THEN payload END AS payload, coalesce(expires_at, -1) AS k, expires_at
       FROM potatoq_results ${where} ORDER BY coalesce(expires_at, -1) DESC, id LIMIT ?`,
    )
    .all(...where.params, q.limit + 1) as Array<{
    id: string;
    state: string;
    payload: string | null;
    k: number;
    expires_at: number | null;
  }>;
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map((r) => {
      const m = r.payload === null ? null : mapResult(r.id, r.state, r.payload, r.expires_at);
      return { id: r.id, status: r.state, name: m?.name ?? null, dateDone: m?.dateDone ?? null, expiresAt: isoFromEpoch(r.expires_at) };
    }),
    nextCursor: more && last ? encodeCursor(scope, [last.k, last.k, last.id]) : null,
  };
}

/** Task names from the newest `window` jobs and dead letters plus registered-task records
 *  (read by a primary-key range: ids are compared byte-wise). */
export function taskNames(db: Database.Database, window: number): string[] {
  const names = new Set(
    db
      .prepare(
        `SELECT task FROM potatoq_jobs WHERE seq > (SELECT coalesce(max(seq), 0) FROM potatoq_jobs) - ?
         UNION SELECT task FROM (SELECT task FROM potatoq_dead INDEXED BY ${IX.dead} ORDER BY died_at DESC LIMIT ?)`,
      )
      .pluck()
      .all(window, window) as string[],
  );
  const registered = db
    .prepare(`SELECT payload FROM potatoq_results WHERE id >= ? AND id < ?`)
    .pluck()
    .all(REGISTERED_PREFIX, REGISTERED_PREFIX.replace(/-$/, '.')) as string[];
  for (const p of registered) for (const n of registeredNames(p)) names.add(n);
  return [...names].sort();
}

/** Each task's queues over the same window as `taskNames` (newest jobs and dead letters). */
export function taskQueues(db: Database.Database, window: number): Record<string, string[]> {
  const rows = db
    .prepare(
      `SELECT task, queue, count(*) AS n FROM (
         SELECT task, queue FROM potatoq_jobs WHERE seq > (SELECT coalesce(max(seq), 0) FROM potatoq_jobs) - ?
         UNION ALL SELECT task, queue FROM (SELECT task, queue FROM potatoq_dead INDEXED BY ${IX.dead} ORDER BY died_at DESC LIMIT ?)
       ) GROUP BY task, queue`,
    )
    .all(window, window) as Array<{ task: string; queue: string; n: number }>;
  return foldSightings(rows);
}
