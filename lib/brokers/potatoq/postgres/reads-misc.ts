import 'server-only';
import type { Page, ResultListQuery, ResultSummary, WorkerInfo } from '@/lib/brokers/schema';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { isoFromEpoch, mapResult, registeredNames } from '../mappers';
import { foldSightings } from '@/lib/brokers/task-queues';
import type { PgNames } from './names';
import type { Sql } from './pool';
import { epoch, PgWhere } from './sql';
import { type Liveness, parseHeartbeatInfo, registeredDigest, REGISTERED_PREFIX, toWorkerInfo } from '../heartbeats';

export type { Liveness };

/** Heartbeat ages are measured on the server's clock (`now()`), as potatoq's recovery does. */
export async function listWorkers(sql: Sql, n: PgNames, live: Liveness): Promise<WorkerInfo[]> {
  const rows = await sql<{ id: string; heartbeat_epoch: number; age: number; info: string | null }>(
    `SELECT id, ${epoch('heartbeat', 'heartbeat_epoch')}, extract(epoch FROM now() - heartbeat)::float8 AS age, info FROM ${n.workers} ORDER BY id`,
  );
  const infos = rows.map((r) => parseHeartbeatInfo(r.info));
  const digests = [...new Set(infos.map(registeredDigest).filter((d): d is string => d !== null))];
  const registered = new Map<string, string[]>();
  if (digests.length) {
    const found = await sql<{ id: string; payload: string }>(`SELECT id, payload FROM ${n.results} WHERE id = ANY($1::text[])`, [
      digests.map((d) => REGISTERED_PREFIX + d),
    ]);
    for (const f of found) registered.set(f.id.slice(REGISTERED_PREFIX.length), registeredNames(f.payload));
  }
  return rows.map((r, i) => {
    const info = infos[i]!;
    const digest = registeredDigest(info);
    return toWorkerInfo({
      id: r.id,
      info,
      heartbeatIso: isoFromEpoch(r.heartbeat_epoch),
      ageSeconds: r.age,
      live,
      registered: digest === null ? null : (registered.get(digest) ?? null),
    });
  });
}

/** Results by expiry, newest first (`expires_at DESC, id`; rows without expiry first, as a
 *  backward scan of potatoq's `results_expires` index returns them), without potatoq's
 *  internal records. */
export async function listResults(sql: Sql, n: PgNames, q: ResultListQuery): Promise<Page<ResultSummary>> {
  const scope = 'pg-results';
  const w = new PgWhere()
    .add(`NOT starts_with(id, '${REGISTERED_PREFIX}')`)
    .add(`NOT starts_with(id, 'group:')`)
    .addIf(q.status, (p) => `state = ${p}`);
  const after = decodeCursor(scope, q.cursor, 2);
  if (after) {
    const [k, id] = after;
    if (k === null) w.add(`((expires_at IS NULL AND id > ${w.p(String(id))}) OR expires_at IS NOT NULL)`);
    else {
      const [e, i] = [w.p(String(k)), w.p(String(id))];
      w.add(`expires_at <= ${e}::timestamptz AND (expires_at < ${e}::timestamptz OR id > ${i})`);
    }
  }
  const rows = await sql<{ id: string; state: string; payload: string | null; expires_epoch: number | null; k: string | null }>(
    `SELECT id, state, CASE WHEN length(payload) <= 65536 THEN payload END AS payload, ${epoch('expires_at', 'expires_epoch')}, expires_at::text AS k
     FROM ${n.results} ${w} ORDER BY expires_at DESC, id LIMIT ${q.limit + 1}`,
    w.params,
  );
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map((r) => {
      const m = r.payload === null ? null : mapResult(r.id, r.state, r.payload, r.expires_epoch);
      return { id: r.id, status: r.state, name: m?.name ?? null, dateDone: m?.dateDone ?? null, expiresAt: isoFromEpoch(r.expires_epoch) };
    }),
    nextCursor: more && last ? encodeCursor(scope, [last.k, last.id]) : null,
  };
}

/** Task names from the newest `window` jobs and dead letters plus registered-task records (a
 *  full DISTINCT over millions of jobs would block the page). A prefix match on the results
 *  table has no index under a non-C collation, so the records are read by primary key: the
 *  range `potatoq-registered-` .. `potatoq-registered.` (every such id under a code-point
 *  collation such as C or C.UTF-8) plus the ids the workers' heartbeats name (any collation). */
export async function taskNames(sql: Sql, n: PgNames, window: number): Promise<string[]> {
  const rows = await sql<{ task: string }>(
    `SELECT task FROM (SELECT task FROM ${n.jobs} ORDER BY seq DESC LIMIT $1) j
     UNION SELECT task FROM (SELECT task FROM ${n.dead} ORDER BY died_at DESC LIMIT $1) d`,
    [window],
  );
  const names = new Set(rows.map((r) => r.task));
  const infos = await sql<{ info: string | null }>(`SELECT info FROM ${n.workers}`);
  const ids = [...new Set(infos.map((r) => registeredDigest(parseHeartbeatInfo(r.info))).filter((d): d is string => d !== null))];
  const registered = await sql<{ id: string; payload: string }>(
    `SELECT id, payload FROM ${n.results} WHERE id >= $1 AND id < $2 AND starts_with(id, $1)
     UNION SELECT id, payload FROM ${n.results} WHERE id = ANY($3::text[])`,
    [REGISTERED_PREFIX, REGISTERED_PREFIX.replace(/-$/, '.'), ids.map((d) => REGISTERED_PREFIX + d)],
  );
  for (const r of registered) for (const name of registeredNames(r.payload)) names.add(name);
  return [...names].sort();
}

/** Each task's queues over the same window as `taskNames` (newest jobs and dead letters). */
export async function taskQueues(sql: Sql, n: PgNames, window: number): Promise<Record<string, string[]>> {
  const rows = await sql<{ task: string; queue: string; n: number }>(
    `SELECT task, queue, count(*)::int AS n FROM (
       (SELECT task, queue FROM ${n.jobs} ORDER BY seq DESC LIMIT $1)
       UNION ALL (SELECT task, queue FROM ${n.dead} ORDER BY died_at DESC LIMIT $1)
     ) s GROUP BY task, queue`,
    [window],
  );
  return foldSightings(rows);
}
