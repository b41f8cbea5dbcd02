import 'server-only';
import type Database from 'better-sqlite3';
import type { Page, QueueStats, ResultListQuery, ResultSummary, WorkerInfo } from '@/lib/brokers/schema';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { isoFromEpoch, mapResult, registeredNames } from '../mappers';
import { Where } from './sql';
import { type Liveness, parseHeartbeatInfo, registeredDigest, REGISTERED_PREFIX, toWorkerInfo } from '../heartbeats';
import { HEAD_CHECK_LIMIT, headBlock } from '../head-block';

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

export function overviewQueues(db: Database.Database, workers: WorkerInfo[]): { queues: QueueStats[] } {
  const stats = new Map<string, QueueStats>();
  const get = (name: string): QueueStats => {
    let s = stats.get(name);
    if (!s) stats.set(name, (s = { name, ready: 0, scheduled: 0, running: 0, dead: 0, oldestReadyAt: null, tasks: [] }));
    return s;
  };
  const jobs = db
    .prepare('SELECT queue, state, count(*) AS n, min(created_at) AS oldest FROM potatoq_jobs GROUP BY queue, state')
    .all() as Array<{ queue: string; state: number; n: number; oldest: number | null }>;
  for (const r of jobs) {
    const s = get(r.queue);
    if (r.state === 0) s.scheduled = r.n;
    else if (r.state === 1) {
      s.ready = r.n;
      s.oldestReadyAt = isoFromEpoch(r.oldest);
    } else if (r.state === 2) s.running = r.n;
  }
  for (const r of db.prepare('SELECT queue, count(*) AS n FROM potatoq_dead GROUP BY queue').all() as Array<{ queue: string; n: number }>) {
    get(r.queue).dead = r.n;
  }
  const names = db.prepare('SELECT queue, task FROM potatoq_jobs UNION SELECT queue, task FROM potatoq_dead ORDER BY 1, 2').all() as Array<{
    queue: string;
    task: string;
  }>;
  for (const r of names) {
    const t = get(r.queue).tasks!;
    if (t.length < 100) t.push(r.task);
  }
  const head = db.prepare(
    `SELECT id, task, CASE WHEN length(CAST(payload AS BLOB)) <= ${HEAD_CHECK_LIMIT} THEN payload END AS payload
     FROM potatoq_jobs WHERE state = 1 AND queue = ? ORDER BY priority DESC, seq LIMIT 1`,
  );
  for (const s of stats.values()) {
    if (s.ready) s.blockedBy = headBlock(head.get(s.name) as { id: string; task: string; payload: string | Buffer | null } | undefined);
  }
  // Queues a live worker consumes are shown even when empty.
  for (const w of workers) if (w.status !== 'dead') for (const q of w.queues) get(q);
  return { queues: [...stats.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
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

export function taskNames(db: Database.Database): string[] {
  const names = new Set(db.prepare('SELECT task FROM potatoq_jobs UNION SELECT task FROM potatoq_dead').pluck().all() as string[]);
  const registered = db
    .prepare(`SELECT payload FROM potatoq_results WHERE substr(id, 1, ${REGISTERED_PREFIX.length}) = '${REGISTERED_PREFIX}'`)
    .pluck()
    .all() as string[];
  for (const p of registered) for (const n of registeredNames(p)) names.add(n);
  return [...names].sort();
}
