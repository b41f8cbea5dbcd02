import 'server-only';
import { decodePayload, reasonSummary } from '@/lib/potatoq';
import type { DeadDetail, DeadGroup, DeadListQuery, DeadSummary, Page } from '@/lib/brokers/schema';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { isoFromEpoch, preview, rawParts } from '../mappers';
import type { PgNames } from './names';
import type { Sql } from './pool';
import { readResult } from './reads-tasks';
import { containsPattern, epoch, PAYLOAD_FOR_PREVIEW, PgWhere } from './sql';
import { messageView } from '../message';

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

/** The reason's last line after stripping, as `potatoq dead list` shows it (uncut). */
export const SUMMARY_SQL = `regexp_replace(btrim(coalesce(reason, ''), E' \\t\\n\\r\\f\\x0b'), E'^.*\\n', '')`;

const COLUMNS = `id, queue, task, reason, ${epoch('died_at', 'died_epoch')}, died_at::text AS died_key`;

function summary(r: DeadRow): DeadSummary {
  return { id: r.id, queue: r.queue, task: r.task, summary: reasonSummary(r.reason ?? ''), diedAt: isoFromEpoch(r.died_epoch), preview: preview(r.payload, Number(r.size)) };
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
  if (q.group !== undefined) w.add(`${SUMMARY_SQL} = ${w.p(q.group)}`);
  if (after) {
    const [d, i] = [w.p(after[0]), w.p(after[1])];
    w.add(`died_at <= ${d}::timestamptz AND (died_at < ${d}::timestamptz OR id > ${i})`);
  }
  const bounded = q.q !== undefined || q.group !== undefined;
  const from = bounded ? `(SELECT * FROM ${n.dead} ORDER BY died_at DESC LIMIT ${w.p(window)}) d` : n.dead;
  const rows = await sql<DeadRow>(`SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM ${from} ${w} ORDER BY died_at DESC, id LIMIT ${q.limit + 1}`, w.params);
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map(summary),
    nextCursor: more && last ? encodeCursor(scope, [last.died_key, last.id]) : null,
    ...(bounded ? { searchedNewest: window } : {}),
  };
}

/** Groups by the reason's last line over the newest `window` letters, largest first. */
export async function deadGroups(sql: Sql, n: PgNames, q: { queue?: string }, window: number): Promise<DeadGroup[]> {
  const w = new PgWhere().addIf(q.queue, (p) => `queue = ${p}`);
  const rows = await sql<{ summary: string; n: string; tasks: string[]; queues: string[]; newest: number | null; oldest: number | null }>(
    `SELECT ${SUMMARY_SQL} AS summary, count(*) AS n, array_agg(DISTINCT task ORDER BY task) AS tasks, array_agg(DISTINCT queue ORDER BY queue) AS queues,
            extract(epoch FROM max(died_at))::float8 AS newest, extract(epoch FROM min(died_at))::float8 AS oldest
     FROM (SELECT reason, task, queue, died_at FROM ${n.dead} ${w} ORDER BY died_at DESC LIMIT ${w.p(window)}) d
     GROUP BY 1`,
    w.params,
  );
  return rows
    .map((r) => ({ summary: r.summary, count: Number(r.n), tasks: [...r.tasks].sort(), queues: [...r.queues].sort(), newestAt: isoFromEpoch(r.newest), oldestAt: isoFromEpoch(r.oldest) }))
    .sort((a, b) => b.count - a.count || (a.summary < b.summary ? -1 : a.summary > b.summary ? 1 : 0));
}

export async function getDead(sql: Sql, n: PgNames, id: string): Promise<DeadDetail | null> {
  const [r] = await sql<DeadRow & { payload: string }>(`SELECT ${COLUMNS}, payload, octet_length(payload) AS size FROM ${n.dead} WHERE id = $1`, [id]);
  if (!r) return null;
  const full = r.payload;
  const base = summary({ ...r, payload: full.length <= 65536 ? full : null });
  return { ...base, reason: r.reason, payload: messageView(decodePayload(full)), ...rawParts(full), result: await readResult(sql, n, id) };
}
