import 'server-only';
import { decodePayload } from '@/lib/potatoq';
import { reasonSummary } from '@/lib/pyvalues';
import type { DeadDetail, DeadGroups, DeadGroupsQuery, DeadListQuery, DeadSummary, Page } from '@/lib/brokers/schema';
import { hasRange, type TimeRange } from '@/lib/brokers/time-range';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { isoFromEpoch, msFromEpoch, preview, rawParts } from '../mappers';
import { DeadGrouper, newestWindowNote } from '@/lib/triage/groups';
import { reasonTriage } from '@/lib/triage/reason-fingerprint';
import type { PgNames } from './names';
import type { Sql } from './pool';
import { readResult } from './reads-tasks';
import { loadEstimator } from './stats';
import { containsPattern, epoch, PAYLOAD_FOR_PREVIEW, PgWhere } from './sql';
import { messageView } from '@/lib/potatoq/view';

interface DeadRow {
  id: string;
  queue: string;
  task: string;
  reason: string | null;
  died_epoch: number | null;
  died_key: string;
  payload: string | null;
  size: number;
}

const COLUMNS = `id, queue, task, reason, ${epoch('died_at', 'died_epoch')}, died_at::text AS died_key`;

function summary(r: DeadRow): DeadSummary {
  return {
    id: r.id,
    queue: r.queue,
    task: r.task,
    summary: reasonSummary(r.reason ?? ''),
    diedAt: isoFromEpoch(r.died_epoch),
    preview: preview(r.payload, Number(r.size)),
  };
}

/** A time range is a range of the `dead_died` index. */
function addDiedRange(w: PgWhere, q: TimeRange): PgWhere {
  if (q.since) w.add(`died_at >= ${w.p(q.since)}::timestamptz`);
  if (q.until) w.add(`died_at < ${w.p(q.until)}::timestamptz`);
  return w;
}

/**
 * Newest first (`died_at DESC, id`) on potatoq's `dead_died` index; the cursor is an index
 * range. Text search (reason and payload) and group filters look only at the newest
 * `window` letters (potatoq keeps `dead_letter_max` = 10,000 by default).
 */
export async function listDead(sql: Sql, n: PgNames, q: DeadListQuery, window: number): Promise<Page<DeadSummary>> {
  const scope = 'pg-dead';
  const after = decodeCursor(scope, q.cursor, 2)?.map((v) => String(v)) ?? null;
  const w = new PgWhere()
    .addIf(q.queue, (p) => `queue = ${p}`)
    .addIf(q.task, (p) => `task = ${p}`)
    .addIf(q.id, (p) => `starts_with(id, ${p})`);
  if (q.q) {
    const p = w.p(containsPattern(q.q));
    w.add(q.qIn === 'reason' ? `reason ILIKE ${p}` : `(reason ILIKE ${p} OR payload ILIKE ${p})`);
  }
  addDiedRange(w, q);
  if (after) {
    const [d, i] = [w.p(after[0]), w.p(after[1])];
    w.add(`died_at <= ${d}::timestamptz AND (died_at < ${d}::timestamptz OR id > ${i})`);
  }
  const bounded = q.q !== undefined || q.group !== undefined;
  const from = bounded ? `(SELECT * FROM ${n.dead} ORDER BY died_at DESC LIMIT ${w.p(window)}) d` : n.dead;
  let rows: DeadRow[];
  if (q.group === undefined) {
    rows = await sql<DeadRow>(
      `SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM ${from} ${w} ORDER BY died_at DESC, id LIMIT ${q.limit + 1}`,
      w.params,
    );
  } else {
    // The group is the reason's fingerprint, which SQL can't compute: the window's reasons are
    // fingerprinted here, then only the page's rows are read in full.
    const reasons = await sql<{ id: string; reason: string | null }>(
      `SELECT id, reason FROM ${from} ${w} ORDER BY died_at DESC, id`,
      w.params,
    );
    const ids = reasons
      .filter((r) => reasonTriage(r.reason).fp.key === q.group)
      .slice(0, q.limit + 1)
      .map((r) => r.id);
    rows = ids.length
      ? await sql<DeadRow>(
          `SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM ${n.dead} WHERE id = ANY($1::text[]) ORDER BY died_at DESC, id`,
          [ids],
        )
      : [];
  }
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map(summary),
    nextCursor: more && last ? encodeCursor(scope, [last.died_key, last.id]) : null,
    ...(bounded ? { searchedNewest: window } : {}),
  };
}

/**
 * Groups by fingerprint over the newest `window` letters, largest first. Letters with the same
 * reason, task and queue have the same fingerprint, so PostgreSQL counts them first: Node reads
 * and fingerprints one row per distinct (reason, task, queue), not 10,000 tracebacks. One letter
 * past the window is read to tell whether there are more; how many more is the planner's
 * estimate (pg_stats), as the overview's capped counts: never a full count(*). A time range
 * bounds the same index; the estimate is of every time, so with a range "there are more" is all
 * that is said.
 */
export async function deadGroups(sql: Sql, n: PgNames, q: DeadGroupsQuery, window: number): Promise<DeadGroups> {
  const w = addDiedRange(
    new PgWhere().addIf(q.queue, (p) => `queue = ${p}`),
    q,
  );
  const rows = await sql<{
    example: string;
    reason: string | null;
    task: string;
    queue: string;
    n: number;
    newest: number | null;
    oldest: number | null;
    seen: number;
  }>(
    `WITH d AS (SELECT id, reason, task, queue, died_at, ${epoch('died_at', 'died_epoch')} FROM ${n.dead} ${w}
                ORDER BY died_at DESC LIMIT ${w.p(window + 1)}),
          g AS (SELECT * FROM d ORDER BY died_at DESC LIMIT ${w.p(window)})
     SELECT reason, task, queue, count(*)::int AS n, max(died_epoch) AS newest, min(died_epoch) AS oldest,
       (array_agg(id ORDER BY died_at DESC, id))[1] AS example, (SELECT count(*) FROM d)::int AS seen
     FROM g GROUP BY reason, task, queue ORDER BY newest DESC NULLS LAST, example`,
    w.params,
  );
  const groups = new DeadGrouper();
  for (const r of rows) {
    const t = reasonTriage(r.reason);
    groups.add({
      id: r.example,
      task: r.task,
      queue: r.queue,
      diedAtMs: msFromEpoch(r.newest),
      oldestMs: msFromEpoch(r.oldest),
      count: r.n,
      summary: t.summary,
      fp: t.fp,
    });
  }
  if ((rows[0]?.seen ?? 0) <= window) return groups.answer();
  if (hasRange(q)) return groups.answer(newestWindowNote({ window, why: 'the searchWindow option, in the time range' }));
  const estimate = (await loadEstimator(sql, n)).dead(q.queue);
  const total = estimate === null ? undefined : ({ n: estimate, how: 'about' } as const);
  const why = `the searchWindow option${total && total.n > window ? "; the total is PostgreSQL's estimate" : ''}`;
  return groups.answer(newestWindowNote({ window, total, why }));
}

export async function getDead(sql: Sql, n: PgNames, id: string): Promise<DeadDetail | null> {
  const [r] = await sql<DeadRow & { payload: string }>(
    `SELECT ${COLUMNS}, payload, octet_length(payload) AS size FROM ${n.dead} WHERE id = $1`,
    [id],
  );
  if (!r) return null;
  const full = r.payload;
  const base = summary({ ...r, payload: full.length <= 65536 ? full : null });
  return { ...base, reason: r.reason, payload: messageView(decodePayload(full)), ...rawParts(full), result: await readResult(sql, n, id) };
}
