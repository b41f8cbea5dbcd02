import 'server-only';
import type { SchedulesDecl } from '@/lib/brokers/schedule-model';
import type { Schedule, ScheduleList } from '@/lib/brokers/schedule';
import { isoOf, isNoTable, type SdjQuery } from './db';

// Simple Durable Jobs' scheduled jobs as the database shows them: only `scheduled_fires(name,
// last_fire_at, last_fired_at)`, one row per schedule name (docs/systems/simple-durable-jobs.md,
// "Schedules"). The schedule itself (`Schedule(...)`/`ScheduleE(...)` with its expression,
// handler and options) is registered in the Go application's code and never reaches the database.
//
// v4.5.1 writes the row in two places: a worker that first sees a schedule with no row seeds
// `last_fire_at` with its clock (the anchor every worker counts the first boundary from) and
// leaves `last_fired_at` NULL; each real firing claims its boundary with one UPDATE setting both
// columns to that boundary (the schedule's computed due time, not the instant it was enqueued),
// in the same transaction as the enqueue of its job. Nothing ever deletes a row.

const SOURCE =
  "Simple Durable Jobs' scheduled_fires table: one row per schedule name with its last firing (the boundary it was due at), written by the worker that fired it. Read only.";

export const SDJ_SCHEDULES: SchedulesDecl = {
  source: SOURCE,
  cannotSee: [
    "The schedules themselves: they are registered in the Go application's code (Schedule or ScheduleE), never in the database. The console shows each name and its last firing, not its handler, expression, time zone, queue or next run.",
    'Firings before the last: the library keeps one row per name and overwrites it at each firing.',
    "Which job a firing enqueued, and whether it ran: the library records no job id with a firing, and the job carries nothing of the schedule's (its type is the handler's name, its queue the schedule's option).",
    'Missed firings: one timestamp per name gives no period to compare with, and the expression is in the code.',
    "A schedule removed from the application's code: its row stays, with its last firing.",
    'Pause, edit, delete or run now: the library has none of these for schedules; change the code and restart the workers.',
  ],
  timeZones: null,
  actions: {},
};

/** Rows read at most: schedules are registered in code, so more than this is not expected. */
export const MAX_SCHEDULES = 500;

export interface SdjFireRow {
  name: unknown;
  last_fire_at: unknown;
  last_fired_at: unknown;
}

const NOT_LINKED =
  'the boundary it was due at, as the library records it (not the instant a worker enqueued it); no job id is recorded with a firing';

/** A database timestamp as ISO, or null for none or the epoch (a claim's placeholder row). */
function instant(v: unknown): string | null {
  const iso = isoOf(v);
  if (iso === null) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) && t <= 0 ? null : iso;
}

/** One scheduled_fires row as the Schedules tab shows it. */
export function sdjSchedule(r: SdjFireRow): Schedule {
  const name = String(r.name);
  const fired = instant(r.last_fired_at);
  const cursor = instant(r.last_fire_at);
  const words = fired
    ? cursor && cursor !== fired
      ? `the schedule is in the Go application's code; only its last firing is recorded here (its cursor last_fire_at says ${cursor}, which v4.5.1 keeps equal to the last firing)`
      : "the schedule is in the Go application's code; only its last firing is recorded here"
    : cursor
      ? `no firing recorded: a worker registered it at ${cursor} (the anchor its first firing counts from), and it has not fired since`
      : 'no firing recorded, and no anchor: the row holds no time';
  return {
    id: name,
    name,
    task: null,
    queue: null,
    cron: null,
    words,
    timeZone: null,
    paused: null,
    nextAt: null,
    last: fired ? { at: fired, dueAt: fired, jobId: null, state: null, link: null, note: NOT_LINKED } : null,
    payload: null,
    problems: [],
  };
}

const firedAt = (s: Schedule) => (s.last ? Date.parse(s.last.at) : -Infinity);

/** The rows as the tab lists them: most recently fired first, never-fired ones last, by name. */
export function sdjScheduleList(rows: SdjFireRow[], opts: { capped: boolean; notes?: string[]; now?: number }): ScheduleList {
  const schedules = rows.map(sdjSchedule).sort((a, b) => firedAt(b) - firedAt(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const notes = [...(opts.notes ?? [])];
  if (opts.capped) notes.push(`only the first ${MAX_SCHEDULES} schedule names (in name order) were read`);
  return { schedules, capped: opts.capped, notes, readAt: new Date(opts.now ?? Date.now()).toISOString() };
}

const NO_TABLE =
  "there is no scheduled_fires table here (the library's Migrate() creates it): no schedule has been recorded in this database";

// By the primary key, so the read stays bounded however many rows there are.
const COLUMNS = 'SELECT name, last_fire_at, last_fired_at FROM scheduled_fires';

export async function listSdjSchedules(q: SdjQuery): Promise<ScheduleList> {
  let rows: SdjFireRow[];
  try {
    rows = await q.all<SdjFireRow & Record<string, unknown>>(`${COLUMNS} ORDER BY name LIMIT ${MAX_SCHEDULES + 1}`);
  } catch (e) {
    if (isNoTable(e)) return sdjScheduleList([], { capped: false, notes: [NO_TABLE] });
    throw e;
  }
  const capped = rows.length > MAX_SCHEDULES;
  const list = sdjScheduleList(rows.slice(0, MAX_SCHEDULES), { capped });
  if (!list.schedules.length) list.notes.push('scheduled_fires is empty: no worker has registered a schedule in this database');
  return list;
}

/** One schedule by name (the primary key); null when there is no row. */
export async function getSdjSchedule(q: SdjQuery, name: string): Promise<Schedule | null> {
  try {
    const [row] = await q.all<SdjFireRow & Record<string, unknown>>(`${COLUMNS} WHERE name = ?`, [name]);
    return row ? sdjSchedule(row) : null;
  } catch (e) {
    if (isNoTable(e)) return null;
    throw e;
  }
}
