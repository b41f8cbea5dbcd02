import 'server-only';
import { z } from 'zod';
import { nextFirings, parseCron, shortestGapSeconds, cronWords } from '@/lib/brokers/cron';
import { ConsoleError } from '@/lib/brokers/errors';
import { wholeNumber } from '@/lib/brokers/form-values';
import { parseInput } from '@/lib/brokers/parse-input';
import type { ScheduleInput, SchedulePreview } from '@/lib/brokers/schedule';
import { QF_MIN_SCHEDULE_SECONDS } from './schedules-model';

// A create form's input as QueueFlow's `POST /api/v1/cron` body (`CreateCronRequest` of 0.6.0:
// name, cron_expr, task_name, payload, config, queue), checked before anything is sent. Each
// refusal is InvalidInput under the form's field.

const ZPayload = z.preprocess(
  (v) => {
    if (v === undefined || v === '' || v === null) return {};
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return Symbol('not JSON');
    }
  },
  z.record(z.string(), z.unknown(), { error: 'the payload must be a JSON object' }),
);

const ZFields = z.strictObject({
  payload: ZPayload,
  priority: wholeNumber('priority', -1000, 1000),
  max_retries: wholeNumber('max retries', 0, 1000),
  timeout_secs: wholeNumber('timeout', 1, 86_400),
});

const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Z']);

/** Every IANA zone this Node knows (the time zone field's check). */
function knownZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const refuse = (field: string, message: string) => new ConsoleError('InvalidInput', `${field}: ${message}`, { [field]: message });

export interface QfCronBody {
  name: string;
  cron_expr: string;
  task_name: string;
  payload: Record<string, unknown>;
  queue?: string;
  config?: Record<string, number>;
}

/** The body QueueFlow gets, with the expression in words and its next firings. */
export function buildCron(input: ScheduleInput, now = new Date()): { body: QfCronBody; words: string; next: string[] } {
  const tz = input.timeZone.trim() || 'UTC';
  if (!UTC_NAMES.has(tz)) {
    if (!knownZone(tz)) throw refuse('timeZone', `"${tz.slice(0, 60)}" is not a time zone (an IANA name such as Europe/Paris, or UTC)`);
    throw refuse(
      'timeZone',
      `QueueFlow evaluates every schedule in UTC and has no time zone setting: write the expression in UTC and choose UTC (${tz} is not UTC)`,
    );
  }
  const parsed = parseCron(input.cron);
  if (!parsed.ok) throw refuse('cron', parsed.error);
  if (parsed.fields.hasSeconds)
    throw refuse(
      'cron',
      `this expression has a seconds field: QueueFlow would fire it up to once a second (at every janitor tick). The console creates schedules of at least ${QF_MIN_SCHEDULE_SECONDS} s: use the 5 fields minute hour day-of-month month day-of-week`,
    );
  const next = nextFirings(parsed.fields, now, 3);
  if (!next.length) throw refuse('cron', 'this expression never fires in the next five years');
  const gap = shortestGapSeconds(parsed.fields, now);
  if (gap !== null && gap < QF_MIN_SCHEDULE_SECONDS)
    throw refuse('cron', `this expression fires every ${gap} s; the least the console creates is ${QF_MIN_SCHEDULE_SECONDS} s`);
  if (input.queue !== undefined && input.queue !== '' && /[\s\p{Cc}]/u.test(input.queue))
    throw refuse('queue', 'queue names must not contain whitespace or control characters');
  const stray = Object.keys(input.fields).find((k) => !['payload', 'priority', 'max_retries', 'timeout_secs'].includes(k));
  if (stray !== undefined)
    throw refuse(`fields.${stray.slice(0, 100)}`, 'QueueFlow schedules have no such field (payload, priority, max_retries, timeout_secs)');
  let f: z.output<typeof ZFields>;
  try {
    f = parseInput(ZFields, input.fields);
  } catch (e) {
    // The form's fields are under `fields.<key>`.
    if (e instanceof ConsoleError && e.fields)
      throw new ConsoleError('InvalidInput', e.message, Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [`fields.${k}`, v])));
    throw e;
  }
  const config: Record<string, number> = {};
  if (f.priority !== undefined) config.priority = f.priority;
  if (f.max_retries !== undefined) config.max_retries = f.max_retries;
  if (f.timeout_secs !== undefined) config.timeout_secs = f.timeout_secs;
  const body: QfCronBody = {
    name: input.name,
    cron_expr: input.cron.trim().replace(/\s+/g, ' '),
    task_name: input.task,
    payload: f.payload,
    ...(input.queue ? { queue: input.queue } : {}),
    ...(Object.keys(config).length ? { config } : {}),
  };
  return { body, words: cronWords(parsed.fields), next: next.map((d) => d.toISOString()) };
}

/** Notes an operator reads before creating: QueueFlow's day numbering where days are numbers. */
function notesOf(input: ScheduleInput): string[] {
  const dow = input.cron.trim().split(/\s+/)[4];
  return dow && /\d/.test(dow) ? ['Days of the week count from Sunday = 1 in QueueFlow (1-5 is Sunday through Thursday).'] : [];
}

export function previewCron(input: ScheduleInput, replaces?: { id: string; name: string }): SchedulePreview {
  const { body, words, next } = buildCron(input);
  const create = { method: 'POST', path: '/api/v1/cron', body: JSON.stringify(body, null, 2) };
  if (!replaces) return { calls: [create], words, next, notes: notesOf(input) };
  return {
    calls: [{ method: 'DELETE', path: `/api/v1/cron/${encodeURIComponent(replaces.id)}`, body: null }, create],
    words,
    next,
    notes: [
      `QueueFlow cannot change a schedule: "${replaces.name}" is deleted, then created again with these fields (a new id, no last firing). If the create is refused, the console creates the old one again.`,
      ...notesOf(input),
    ],
  };
}
