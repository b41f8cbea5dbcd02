import 'server-only';
import { isConsoleError } from '@/lib/brokers/errors';
import type { DeadDetail, DeadGroups, DeadGroupsQuery, DeadListQuery, DeadSummary, Page } from '@/lib/brokers/schema';
import { fingerprintError, type Fingerprint } from '@/lib/triage/fingerprint';
import { DeadGrouper, newestWindowNote } from '@/lib/triage/groups';
import { parsePythonError } from '@/lib/triage/python-traceback';
import { isDenied, type QfClient } from './client';
import { readJob, toResult } from './jobs';
import { jobView, missingJobView, payloadText } from './message';
import { collectRows, mapLimit, unwrapCursor, wrapCursor, type ServerPage } from './pages';
import { replayedWhy, type ReplayLinks } from './replayed';
import { cursorAfter, parseWire, ZDeadLetter, ZDeadPage, type QfDeadLetter, type QfJob } from './wire';

/** How many of the newest letters groups and filters the server lacks (group, text) look at. */
export const DEAD_WINDOW = 2000;
/** Searching payloads reads each letter's job: a smaller window. */
export const PAYLOAD_WINDOW = 300;

const SCOPE = 'qf-dead';

/** The DLQ's pages, filtered on the server by queue, task and when the letter was written (the
 *  job's death: `created_after`/`created_before`, the range's since and until). */
function pager(client: QfClient, q: { queue?: string; task?: string; since?: string; until?: string }) {
  return async (cursor: string | undefined, limit: number): Promise<ServerPage<QfDeadLetter>> => {
    const range = { created_after: q.since, created_before: q.until };
    const raw = await client.get('/api/v1/dlq', { queue: q.queue, task_name: q.task, ...range, limit, cursor });
    const page = parseWire(ZDeadPage, raw, 'the dead-letter list');
    return { rows: page.dead_letters, hasMore: page.has_more, next: page.next_cursor ?? null };
  };
}
const afterLetter = (d: QfDeadLetter) => cursorAfter(d.created_at, d.id);

/** The letter's error text: the worker's message, else QueueFlow's reason code. */
const errorText = (d: QfDeadLetter) => d.error_message ?? d.reason;

/** The last line of the error, as the list shows it. */
export function summaryOf(d: QfDeadLetter): string {
  const lines = errorText(d)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? d.reason;
}

/**
 * A letter no worker had a handler for, in QueueFlow 0.6.0's two wordings: the server's own
 * in-process workers record the reason `handler_not_found` ("no handler registered for task
 * 'T'"); the Python client's `run_worker` reports a failure that is not retried, so the reason is
 * `non_retryable` and the error "no worker handler for task 'T'".
 */
export const lacksHandler = (d: Pick<DeadSummary, 'cause' | 'summary'>): boolean =>
  d.cause === 'handler_not_found' || /^no worker handler for task '/.test(d.summary);

/** The triage fingerprint of a letter: its error as Python prints it; without an exception type
 *  (the Python worker sends `str(exc)`), QueueFlow's reason code stands in for the type. */
export function letterFingerprint(d: QfDeadLetter): Fingerprint {
  const parts = parsePythonError(errorText(d));
  return fingerprintError({ ...parts, type: parts.type ?? d.reason });
}

/** A letter as the list shows it; `replayJob`: the job its replay runs as (ReplayLinks), else
 *  QueueFlow's own record. A replayed letter declares its replay off, in the words QueueFlow's
 *  refusal gets (writes.ts). */
export function toDeadSummary(d: QfDeadLetter, replayJob?: string | null): DeadSummary {
  const job = replayJob ?? d.replay_job_id ?? null;
  return {
    id: String(d.id),
    queue: d.queue_name ?? '',
    task: d.task_name ?? '',
    summary: summaryOf(d),
    diedAt: d.created_at,
    // The payload is on the letter's job, one more call per letter: not read for lists.
    preview: { kind: 'native', text: '' },
    cause: d.reason,
    replayed: d.replayed_at || job ? { at: d.replayed_at ?? null, taskId: job } : null,
    ...(d.replayed_at || job ? { unavailable: { replay: replayedWhy(job ?? '(unknown)') } } : {}),
  };
}

/** The letters as the list shows them, each replayed one with the job its replay runs as. */
async function summaries(rows: QfDeadLetter[], links: ReplayLinks | undefined): Promise<DeadSummary[]> {
  // A link that cannot be read now falls back to QueueFlow's record: the list still shows.
  const jobOf = (d: QfDeadLetter) => (links && d.replay_job_id ? links.jobOf(d).catch(() => null) : Promise.resolve(null));
  const jobs = links ? await mapLimit(rows, 8, jobOf) : [];
  return rows.map((d, i) => toDeadSummary(d, jobs[i]));
}

/** `links` resolves replayed letters' jobs (absent: QueueFlow's record, for names only). */
export async function listDead(client: QfClient, q: DeadListQuery, links?: ReplayLinks): Promise<Page<DeadSummary>> {
  const start = unwrapCursor(SCOPE, q.cursor);
  const needle = q.q?.toLowerCase();
  const inPayload = needle !== undefined && q.qIn !== 'reason';
  const bounded = q.id !== undefined || needle !== undefined || q.group !== undefined;
  let fetchPage = pager(client, q);
  // Text in the payload is on each letter's job: read them for the window's letters.
  const payloads = new Map<number, string>();
  if (inPayload) {
    const plain = fetchPage;
    fetchPage = async (cursor, limit) => {
      const page = await plain(cursor, limit);
      const jobs = await mapLimit(page.rows, 8, (d) => readJob(client, d.job_id));
      page.rows.forEach((d, i) => payloads.set(d.id, jobs[i] ? payloadText(jobs[i]) : ''));
      return page;
    };
  }
  const keep = (d: QfDeadLetter) =>
    (q.id === undefined || String(d.id).startsWith(q.id)) &&
    (q.group === undefined || letterFingerprint(d).key === q.group) &&
    (needle === undefined ||
      `${d.reason}\n${errorText(d)}`.toLowerCase().includes(needle) ||
      (inPayload && (payloads.get(d.id) ?? '').toLowerCase().includes(needle)));
  const got = await collectRows(
    fetchPage,
    afterLetter,
    q.limit,
    start,
    bounded ? { keep, window: inPayload ? PAYLOAD_WINDOW : DEAD_WINDOW } : undefined,
  );
  return {
    items: await summaries(got.rows, links),
    nextCursor: wrapCursor(SCOPE, got.next),
    ...(got.searchedNewest ? { searchedNewest: got.searchedNewest } : {}),
  };
}

/** A letter by its integer id; null when QueueFlow has none visible to this tenant. */
export async function readLetter(client: QfClient, id: string): Promise<QfDeadLetter | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  try {
    return parseWire(ZDeadLetter, await client.get(`/api/v1/dlq/${id}`), 'a dead letter');
  } catch (e) {
    if (isDenied(e) || (isConsoleError(e) && (e.code === 'NotFound' || e.code === 'InvalidInput'))) return null;
    throw e;
  }
}

export async function getDead(client: QfClient, id: string, links?: ReplayLinks): Promise<DeadDetail | null> {
  const d = await readLetter(client, id);
  if (!d) return null;
  const [job, replayJob]: [QfJob | null, string | null] = await Promise.all([
    readJob(client, d.job_id),
    links ? links.jobOf(d).catch(() => null) : null,
  ]);
  const raw = job ? payloadText(job) : '';
  return {
    ...toDeadSummary(d, replayJob),
    reason: errorText(d),
    payload: job ? jobView(job) : missingJobView(d),
    raw,
    rawSize: Buffer.byteLength(raw),
    rawTruncated: false,
    result: job ? toResult(job) : null,
  };
}

/** The newest DEAD_WINDOW letters (of the time range: `created_after`/`created_before`) grouped;
 *  past them, the list's own count (`include_total`, one COUNT on the server, asked only then,
 *  over the same range) says how many there are in all. */
export async function deadGroups(client: QfClient, q: DeadGroupsQuery): Promise<DeadGroups> {
  const got = await collectRows(pager(client, q), afterLetter, DEAD_WINDOW, undefined);
  const groups = new DeadGrouper();
  for (const d of got.rows) {
    groups.add({
      id: String(d.id),
      task: d.task_name ?? '',
      queue: d.queue_name ?? '',
      diedAtMs: Date.parse(d.created_at),
      summary: summaryOf(d),
      fp: letterFingerprint(d),
    });
  }
  if (!got.next) return groups.answer();
  const counted = parseWire(
    ZDeadPage,
    await client.get('/api/v1/dlq', { queue: q.queue, created_after: q.since, created_before: q.until, limit: 1, include_total: true }),
    'the dead-letter count',
  ).total;
  const why = `the console reads at most ${DEAD_WINDOW.toLocaleString('en-US')} of QueueFlow's dead letters for the groups`;
  const total = counted === undefined ? undefined : ({ n: counted, how: 'exact' } as const);
  return groups.answer(newestWindowNote({ window: got.rows.length, total, why }));
}
