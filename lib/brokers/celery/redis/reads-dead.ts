import 'server-only';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { reasonSummary } from '@/lib/pyvalues/reason';
import { pyToTyped } from '@/lib/pyvalues/typed';
import type {
  DeadDetail,
  DeadGroups,
  DeadGroupsQuery,
  DeadListQuery,
  DeadSummary,
  MessageView,
  Page,
  ResultListQuery,
  ResultSummary,
} from '@/lib/brokers/schema';
import { DeadGrouper, type GroupedLetter } from '@/lib/triage/groups';
import { requireBackend, type ResultCtx } from './context';
import { failureReason, readRecord, recordDto, type CeleryRecord } from './results';
import { freshIndex, recordsOf } from './indexed';
import { RESULT_INDEX_CAP, type IndexedResult } from './result-index';
import { inRange } from '@/lib/brokers/time-range';

// Celery has no dead-letter store: a failed task leaves a FAILURE record in the result backend.
// Those are the console's dead letters; with `result_extended` they carry the task's name,
// args, kwargs and queue (what replay needs), without it only the exception and traceback.

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const LIMITS = { maxDepth: 16, maxString: 10_000, maxItems: 500 };

function deadSummary(r: CeleryRecord): DeadSummary {
  const argsText = r.args || r.kwargs ? `${r.args ? JSON.stringify(pyToTyped(r.args, LIMITS)).slice(0, 80) : ''}` : '';
  return {
    id: r.id,
    queue: r.queue ?? '',
    task: r.name ?? '(name not stored: result_extended is off)',
    summary: reasonSummary(failureReason(r)),
    diedAt: iso(r.dateDoneMs),
    preview: { kind: 'native', text: argsText || '(no arguments stored)' },
  };
}

/** What the lists and counts leave out when the backend holds more records than the index keeps. */
export const CAPPED_NOTE =
  `The result backend holds more than ${RESULT_INDEX_CAP.toLocaleString('en-US')} records and the console keeps that many of them ` +
  "(in SCAN order, not the newest: nothing orders them), so these groups count the FAILURE records among them; the others are in no group's count.";

/** The ids of every FAILURE record (of those the index keeps). */
export async function failureIds(ctx: ResultCtx): Promise<Set<string>> {
  return new Set((await freshIndex(ctx)).failures().map((r) => r.id));
}

/** What the index knows is enough to filter by queue, task, id prefix, group and time range. */
function indexMatches(r: IndexedResult, q: DeadListQuery): boolean {
  if (q.queue && r.queue !== q.queue) return false;
  if (q.task && r.name !== q.task) return false;
  if (q.id && !r.id.startsWith(q.id)) return false;
  if (q.group && r.fail?.fp.key !== q.group) return false;
  // The index keeps each failure's date_done: the range is checked before any record is read.
  return inRange(r.doneMs, q);
}

/** Text search needs the record itself (its reason, or its whole text). */
function textMatches(r: CeleryRecord, q: DeadListQuery): boolean {
  if (!q.q) return true;
  const inReason = failureReason(r).includes(q.q);
  return q.qIn === 'reason' ? inReason : inReason || r.raw.includes(q.q);
}

/** The newest failures first (date_done DESC, id): filtered on the index, then only the page's
 *  records read (one MGET of `limit + 1` keys without a text search; chunks until the page is
 *  full with one). */
export async function listDead(ctx: ResultCtx, q: DeadListQuery): Promise<Page<DeadSummary>> {
  const index = await freshIndex(ctx);
  let rest = index.failures().filter((r) => indexMatches(r, q));
  const c = decodeCursor('celery-dead', q.cursor, 2);
  if (c) {
    const [ms, id] = [Number(c[0]), String(c[1])];
    rest = rest.filter((r) => (r.doneMs ?? 0) < ms || ((r.doneMs ?? 0) === ms && r.id > id));
  }
  const page: CeleryRecord[] = [];
  let more = false;
  for await (const r of recordsOf(ctx, index, rest, q.limit + 1, 'FAILURE')) {
    if (!textMatches(r, q)) continue;
    if (page.length === q.limit) {
      more = true;
      break;
    }
    page.push(r);
  }
  const last = page[page.length - 1];
  return {
    items: page.map(deadSummary),
    nextCursor: more && last ? encodeCursor('celery-dead', [last.dateDoneMs ?? 0, last.id]) : null,
  };
}

/** The FAILURE records as entries of the error groups (lib/triage/groups.ts), from the index. */
export async function failureEntries(ctx: ResultCtx, q: { queue?: string }): Promise<{ entries: GroupedLetter[]; capped: boolean }> {
  const index = await freshIndex(ctx);
  const entries: GroupedLetter[] = [];
  for (const r of index.failures()) {
    if ((q.queue && r.queue !== q.queue) || !r.fail) continue;
    entries.push({ id: r.id, task: r.name ?? '?', queue: r.queue ?? '', diedAtMs: r.doneMs, summary: r.fail.summary, fp: r.fail.fp });
  }
  return { entries, capped: index.capped };
}

/** The FAILURE records grouped; a time range is compared on the index (by `date_done`). */
export async function deadGroups(ctx: ResultCtx, q: DeadGroupsQuery): Promise<DeadGroups> {
  const g = new DeadGrouper(q);
  const { entries, capped } = await failureEntries(ctx, q);
  for (const e of entries) g.add(e);
  return g.answer(capped ? CAPPED_NOTE : null);
}

function failureView(r: CeleryRecord): MessageView {
  const typed = (v: CeleryRecord['args']) => (v ? pyToTyped(v, LIMITS) : null);
  return {
    format: 'celery',
    task: r.name,
    id: r.id,
    queue: r.queue,
    args: typed(r.args),
    kwargs: typed(r.kwargs),
    fields: [],
    headers: [
      { name: 'status', text: r.status },
      ...(r.excType ? [{ name: 'exception', text: r.excMessage ? `${r.excType}: ${r.excMessage}` : r.excType }] : []),
      ...(r.worker ? [{ name: 'worker', text: r.worker }] : []),
      ...(r.name
        ? []
        : [
            {
              name: 'note',
              text: 'no name, args or queue stored: the app runs without result_extended, so this failure cannot be replayed',
            },
          ]),
    ],
    headersTitle: 'Celery FAILURE record (result backend)',
    flags: [],
    foreign: null,
    value: null,
  };
}

export async function getDead(ctx: ResultCtx, id: string): Promise<DeadDetail | null> {
  const found = await readRecord(requireBackend(ctx), ctx.resultPrefix, id);
  if (!found || found.record.status !== 'FAILURE') return null;
  const r = found.record;
  return {
    ...deadSummary(r),
    reason: failureReason(r),
    payload: failureView(r),
    raw: r.raw,
    rawSize: Buffer.byteLength(r.raw, 'utf8'),
    rawTruncated: false,
    result: recordDto(r, found.ttl),
  };
}

export async function listResults(ctx: ResultCtx, q: ResultListQuery): Promise<Page<ResultSummary>> {
  // The index keeps each record's date_done: a range is checked there, like the status.
  const all = (await freshIndex(ctx)).all().filter((r) => (!q.status || r.status === q.status) && inRange(r.doneMs, q));
  const c = decodeCursor('celery-results', q.cursor, 2);
  const rest = c ? all.filter((r) => (r.doneMs ?? 0) < Number(c[0]) || ((r.doneMs ?? 0) === Number(c[0]) && r.id > String(c[1]))) : all;
  const page = rest.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({ id: r.id, status: r.status, name: r.name, dateDone: iso(r.doneMs), expiresAt: null })),
    nextCursor: rest.length > q.limit && last ? encodeCursor('celery-results', [last.doneMs ?? 0, last.id]) : null,
  };
}

export async function getResult(ctx: ResultCtx, id: string) {
  const found = await readRecord(requireBackend(ctx), ctx.resultPrefix, id);
  return found ? recordDto(found.record, found.ttl) : null;
}

/** Why a failure count is a lower bound: the index keeps at most RESULT_INDEX_CAP records. */
export const DEAD_COUNT_CAPPED_WHY = `the result backend holds more than ${RESULT_INDEX_CAP.toLocaleString('en-US')} records and the console keeps that many (in SCAN order) to count the FAILURE records among them: there are at least this many failures`;

/** Failure counts per queue (records without a stored queue are counted under ""); `capped`
 *  when the backend held more records than the index keeps, so every count is a lower bound. */
export async function deadCounts(
  ctx: ResultCtx,
): Promise<{ byQueue: Map<string, number>; total: number; names: Set<string>; capped: boolean }> {
  const index = await freshIndex(ctx);
  const byQueue = new Map<string, number>();
  const names = new Set<string>();
  const failures = index.failures();
  for (const r of failures) {
    byQueue.set(r.queue ?? '', (byQueue.get(r.queue ?? '') ?? 0) + 1);
    if (r.name) names.add(r.name);
  }
  return { byQueue, total: failures.length, names, capped: index.capped };
}
