import 'server-only';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { reasonSummary, reasonSummaryFull } from '@/lib/pyvalues/reason';
import { pyToTyped } from '@/lib/pyvalues/typed';
import type {
  DeadDetail,
  DeadGroups,
  DeadListQuery,
  DeadSummary,
  MessageView,
  Page,
  ResultListQuery,
  ResultSummary,
} from '@/lib/brokers/schema';
import { DeadGrouper, type GroupedLetter } from '@/lib/triage/groups';
import { requireBackend, type ResultCtx } from './context';
import { failureReason, readRecord, recordDto, RESULT_SCAN_CAP, scanRecords, type CeleryRecord } from './results';

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

/** The FAILURE records among the records one scan reads (at most RESULT_SCAN_CAP, `capped`
 *  when there were more), newest first (date_done DESC, id). */
async function scanFailures(ctx: ResultCtx): Promise<{ records: CeleryRecord[]; capped: boolean }> {
  const { records, capped } = await scanRecords(requireBackend(ctx), ctx.resultPrefix);
  const failed = records
    .filter((r) => r.status === 'FAILURE')
    .sort((a, b) => (b.dateDoneMs ?? 0) - (a.dateDoneMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { records: failed, capped };
}
const failures = async (ctx: ResultCtx) => (await scanFailures(ctx)).records;

/** What the groups leave out when the backend holds more records than one scan reads. */
export const CAPPED_NOTE =
  `The result backend holds more than ${RESULT_SCAN_CAP.toLocaleString('en-US')} records: a read takes that many in SCAN order ` +
  "(not the newest: nothing orders them), so these groups count the FAILURE records among them; the others are in no group's count.";

/** The ids of every FAILURE record. */
export async function failureIds(ctx: ResultCtx): Promise<Set<string>> {
  return new Set((await failures(ctx)).map((r) => r.id));
}

function deadMatches(r: CeleryRecord, q: DeadListQuery): boolean {
  if (q.queue && r.queue !== q.queue) return false;
  if (q.task && r.name !== q.task) return false;
  if (q.id && !r.id.startsWith(q.id)) return false;
  if (q.group && reasonFingerprint(failureReason(r)).key !== q.group) return false;
  if (q.q) {
    const inReason = failureReason(r).includes(q.q);
    if (q.qIn === 'reason' ? !inReason : !(inReason || r.raw.includes(q.q))) return false;
  }
  return true;
}

export async function listDead(ctx: ResultCtx, q: DeadListQuery): Promise<Page<DeadSummary>> {
  const all = (await failures(ctx)).filter((r) => deadMatches(r, q));
  const c = decodeCursor('celery-dead', q.cursor, 2);
  let rest = all;
  if (c) {
    const [ms, id] = [Number(c[0]), String(c[1])];
    rest = all.filter((r) => (r.dateDoneMs ?? 0) < ms || ((r.dateDoneMs ?? 0) === ms && r.id > id));
  }
  const page = rest.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(deadSummary),
    nextCursor: rest.length > q.limit && last ? encodeCursor('celery-dead', [last.dateDoneMs ?? 0, last.id]) : null,
  };
}

/** The FAILURE records as entries of the error groups (lib/triage/groups.ts); `capped` as scanFailures'. */
export async function failureEntries(ctx: ResultCtx, q: { queue?: string }): Promise<{ entries: GroupedLetter[]; capped: boolean }> {
  const entries: GroupedLetter[] = [];
  const { records, capped } = await scanFailures(ctx);
  for (const r of records) {
    if (q.queue && r.queue !== q.queue) continue;
    const reason = failureReason(r);
    entries.push({
      id: r.id,
      task: r.name ?? '?',
      queue: r.queue ?? '',
      diedAtMs: r.dateDoneMs,
      summary: reasonSummaryFull(reason),
      fp: reasonFingerprint(reason),
    });
  }
  return { entries, capped };
}

export async function deadGroups(ctx: ResultCtx, q: { queue?: string }): Promise<DeadGroups> {
  const g = new DeadGrouper();
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
  const { records } = await scanRecords(requireBackend(ctx), ctx.resultPrefix);
  const all = records
    .filter((r) => !q.status || r.status === q.status)
    .sort((a, b) => (b.dateDoneMs ?? 0) - (a.dateDoneMs ?? 0) || (a.id < b.id ? -1 : 1));
  const c = decodeCursor('celery-results', q.cursor, 2);
  const rest = c
    ? all.filter((r) => (r.dateDoneMs ?? 0) < Number(c[0]) || ((r.dateDoneMs ?? 0) === Number(c[0]) && r.id > String(c[1])))
    : all;
  const page = rest.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({ id: r.id, status: r.status, name: r.name, dateDone: iso(r.dateDoneMs), expiresAt: null })),
    nextCursor: rest.length > q.limit && last ? encodeCursor('celery-results', [last.dateDoneMs ?? 0, last.id]) : null,
  };
}

export async function getResult(ctx: ResultCtx, id: string) {
  const found = await readRecord(requireBackend(ctx), ctx.resultPrefix, id);
  return found ? recordDto(found.record, found.ttl) : null;
}

/** Why a failure count is a lower bound: one read takes at most RESULT_SCAN_CAP records. */
export const DEAD_COUNT_CAPPED_WHY = `the result backend holds more than ${RESULT_SCAN_CAP.toLocaleString('en-US')} records and one read counts the FAILURE records among that many (in SCAN order): there are at least this many failures`;

/** Failure counts per queue (records without a stored queue are counted under ""); `capped`
 *  when the backend held more records than one scan reads, so every count is a lower bound. */
export async function deadCounts(
  ctx: ResultCtx,
): Promise<{ byQueue: Map<string, number>; total: number; names: Set<string>; capped: boolean }> {
  const byQueue = new Map<string, number>();
  const names = new Set<string>();
  let total = 0;
  const { records, capped } = await scanFailures(ctx);
  for (const r of records) {
    total += 1;
    byQueue.set(r.queue ?? '', (byQueue.get(r.queue ?? '') ?? 0) + 1);
    if (r.name) names.add(r.name);
  }
  return { byQueue, total, names, capped };
}
