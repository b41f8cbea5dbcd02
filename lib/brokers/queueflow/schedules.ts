import 'server-only';
import { z } from 'zod';
import { cronWords, firingsBetween, parseCron } from '@/lib/brokers/cron';
import { ConsoleError } from '@/lib/brokers/errors';
import type { Schedule, ScheduleFiring, ScheduleList, ScheduleProblem } from '@/lib/brokers/schedule';
import { formatAge } from '@/lib/text/format';
import { isDenied, type QfClient } from './client';
import { ZJobPage, parseWire, type QfJob } from './wire';

// QueueFlow's cron schedules read through GET /api/v1/cron (server 0.6.0; fields as its
// `CronSchedule`, docs/systems/queueflow.md), each with the job its last firing made.

const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

export const ZCron = z.looseObject({
  id: z.string(),
  name: z.string(),
  cron_expr: z.string(),
  task_name: z.string(),
  payload: z.record(z.string(), z.unknown()).nullish(),
  config: opt(z.record(z.string(), z.unknown())),
  queue_name: opt(z.string()),
  enabled: z.boolean(),
  next_run_at: z.string(),
  last_enqueued_at: opt(z.string()),
  created_at: z.string(),
});
export type QfCron = z.infer<typeof ZCron>;
const ZCronPage = z.object({ crons: z.array(ZCron), has_more: z.boolean(), next_cursor: opt(z.string()) });

/** Schedules read per tab: QueueFlow pages by 100; more than this is said, not read. */
export const MAX_SCHEDULES = 500;
/** A due firing the janitor has not made this long after its time is missed (the janitor ticks
 *  every `--janitor-interval-secs`, 5 s by default). */
export const MISSED_GRACE_S = 90;
/** Last firings looked up per list (one job query each), newest schedules first. */
const LOOKUPS = 100;

export async function readCrons(client: QfClient): Promise<{ crons: QfCron[]; capped: boolean }> {
  const crons: QfCron[] = [];
  let cursor: string | undefined;
  for (;;) {
    const raw = await client.get('/api/v1/cron', { limit: 100, order_by: 'created_at ASC', ...(cursor ? { cursor } : {}) });
    const page = parseWire(ZCronPage, raw, 'the cron schedule list');
    crons.push(...page.crons);
    if (crons.length >= MAX_SCHEDULES) return { crons: crons.slice(0, MAX_SCHEDULES), capped: true };
    if (!page.has_more || !page.next_cursor) return { crons, capped: false };
    cursor = page.next_cursor;
  }
}

export async function readCron(client: QfClient, id: string): Promise<QfCron | null> {
  try {
    return parseWire(ZCron, await client.get(`/api/v1/cron/${encodeURIComponent(id)}`), 'a cron schedule');
  } catch (e) {
    // Another tenant's schedule is QueueFlow's 403, not 404: to this token it does not exist.
    if (e instanceof ConsoleError && (e.code === 'NotFound' || isDenied(e))) return null;
    throw e;
  }
}

/** The job a schedule's last firing made: the server sets `last_enqueued_at` just before the
 *  job's `created_at` and puts `cron_id` into the job's metadata, so one query by task name
 *  around that instant finds it. Null when gone (retention) or not found in that window. */
export async function lastJob(client: QfClient, c: QfCron): Promise<QfJob | null> {
  if (!c.last_enqueued_at) return null;
  const at = Date.parse(c.last_enqueued_at);
  if (Number.isNaN(at)) return null;
  const raw = await client.get('/api/v1/jobs', {
    task_name: c.task_name,
    created_after: new Date(at - 5_000).toISOString(),
    created_before: new Date(at + 60_000).toISOString(),
    order_by: 'created_at ASC',
    limit: 100,
  });
  const page = parseWire(ZJobPage, raw, 'the jobs of a firing');
  return page.jobs.find((j) => j.metadata?.cron_id === c.id) ?? null;
}

const LINK: Record<string, ScheduleFiring['link']> = {
  pending: 'task',
  retrying: 'task',
  running: 'task',
  completed: 'result',
  cancelled: 'result',
  failed: 'result',
};

function firingOf(c: QfCron, job: QfJob | null, looked: boolean): ScheduleFiring | null {
  if (!c.last_enqueued_at) return null;
  const due = typeof job?.metadata?.cron_due_at === 'string' ? job.metadata.cron_due_at : null;
  return {
    at: c.last_enqueued_at,
    dueAt: due,
    jobId: job?.id ?? null,
    state: job?.status ?? null,
    link: job ? (LINK[job.status] ?? 'task') : null,
    note: job
      ? job.status === 'failed'
        ? (job.error_message ?? 'failed')
        : null
      : looked
        ? 'its job is no longer on the server (retention) or was not found around the firing time'
        : `not looked up: only the last firings of the first ${LOOKUPS} schedules are read per visit`,
  };
}

/** What is wrong with a schedule, from its own record and its last job. */
export function problemsOf(c: QfCron, last: ScheduleFiring | null, now: number): ScheduleProblem[] {
  const out: ScheduleProblem[] = [];
  const next = Date.parse(c.next_run_at);
  if (c.enabled && !Number.isNaN(next) && now - next > MISSED_GRACE_S * 1000)
    out.push({
      kind: 'missed',
      since: c.next_run_at,
      cause: `due ${formatAge((now - next) / 1000)} ago and not fired: QueueFlow fires schedules from the janitor loop of its servers, so no server is running (or every firing's enqueue fails: its log says "cron firing failed")`,
    });
  const parsed = parseCron(c.cron_expr);
  if (last?.dueAt && parsed.ok) {
    const due = new Date(last.dueAt);
    const fired = new Date(last.at);
    const skipped = fired.getTime() - due.getTime() > 60_000 ? firingsBetween(parsed.fields, due, fired) : 0;
    if (skipped > 0)
      out.push({
        kind: 'missed',
        since: last.dueAt,
        cause: `the firing due ${last.dueAt} ran ${formatAge((fired.getTime() - due.getTime()) / 1000)} late, at ${last.at}: ${skipped} later occurrence${skipped === 1 ? '' : 's'} collapsed into that one catch-up firing (the server was down or not firing)`,
      });
  }
  if (last?.state === 'pending' && now - Date.parse(last.at) > MISSED_GRACE_S * 1000)
    out.push({
      kind: 'missed',
      since: last.at,
      cause: `its last firing's job is still pending ${formatAge((now - Date.parse(last.at)) / 1000)} later: no worker consumes queue ${c.queue_name ?? 'default'} (or the queue is paused)`,
    });
  if (last?.state === 'failed')
    out.push({ kind: 'failing', since: last.at, cause: `its last firing's job failed: ${last.note ?? 'no error message'}` });
  return out;
}

export function scheduleOf(c: QfCron, job: QfJob | null, looked: boolean, now = Date.now()): Schedule {
  const parsed = parseCron(c.cron_expr);
  const last = firingOf(c, job, looked);
  return {
    id: c.id,
    name: c.name,
    task: c.task_name,
    queue: c.queue_name ?? null,
    cron: c.cron_expr,
    words: parsed.ok ? cronWords(parsed.fields) : `not read by the console (${parsed.error}); QueueFlow accepted it`,
    timeZone: 'UTC',
    paused: !c.enabled,
    // A paused schedule keeps its old next_run_at; it fires at the next occurrence after a resume.
    nextAt: c.enabled ? c.next_run_at : null,
    last,
    payload: JSON.stringify(c.payload ?? {}),
    problems: problemsOf(c, last, now),
  };
}

export async function listQfSchedules(client: QfClient): Promise<ScheduleList> {
  const { crons, capped } = await readCrons(client);
  const notes: string[] = [];
  if (capped) notes.push(`only the first ${MAX_SCHEDULES} schedules (oldest first) are shown`);
  // Newest schedules first on the page; their last jobs are looked up (bounded, 8 at a time).
  const ordered = [...crons].reverse();
  const jobs = new Map<string, QfJob | null>();
  const todo = ordered.filter((c) => c.last_enqueued_at).slice(0, LOOKUPS);
  for (let i = 0; i < todo.length; i += 8)
    await Promise.all(todo.slice(i, i + 8).map(async (c) => jobs.set(c.id, await lastJob(client, c).catch(() => null))));
  if (ordered.filter((c) => c.last_enqueued_at).length > LOOKUPS)
    notes.push(`last firings are looked up for the newest ${LOOKUPS} schedules only`);
  const now = Date.now();
  return {
    schedules: ordered.map((c) => scheduleOf(c, jobs.get(c.id) ?? null, jobs.has(c.id), now)),
    capped,
    notes,
    readAt: new Date(now).toISOString(),
  };
}
