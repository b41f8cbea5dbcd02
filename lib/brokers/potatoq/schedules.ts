import 'server-only';
import type { SchedulesDecl } from '@/lib/brokers/schedule-model';
import type { Schedule, ScheduleList, ScheduleProblem } from '@/lib/brokers/schedule';
import { formatAge } from '@/lib/text/format';

// potatoq's periodic tasks as the broker shows them: only the durable claims its scheduler
// writes per firing (`periodic (name, fire_at)` on SQLite/PostgreSQL, kept 7 days; the
// `P:periodic-last` hash on Redis, the latest fire_at per entry). The schedule itself is the
// app's `beat_schedule`, which never reaches the broker.

const SOURCE_SQL =
  "potatoq's durable periodic claims (its periodic table): one row per firing of each beat_schedule entry, written by the worker or beat that sent it, kept 7 days. Read only.";
const SOURCE_REDIS =
  "potatoq's durable periodic claims (the periodic-last hash): the latest firing of each beat_schedule entry, written by the worker or beat that sent it. Read only.";
const CANNOT = [
  "The schedules themselves: they live in the application's beat_schedule (`potatoq schedule` lists them with their next run), never in the broker. The console shows each entry's name and its firings, not its task, expression, time zone or next run.",
  'Which task a firing sent: a claim records the entry and its fire time only (the task carries the header periodic=<entry> while it waits).',
  'Pause, edit, delete or run now: potatoq has none of these for periodic tasks; change beat_schedule and restart the workers.',
];

export const POTATOQ_SQL_SCHEDULES: SchedulesDecl = {
  source: SOURCE_SQL,
  cannotSee: [...CANNOT, 'An entry removed from beat_schedule: its claims stay until they are 7 days old.'],
  timeZones: null,
  actions: {},
};
export const POTATOQ_REDIS_SCHEDULES: SchedulesDecl = {
  source: SOURCE_REDIS,
  cannotSee: [...CANNOT, 'Missed firings: Redis keeps only the latest firing of each entry, so the period cannot be inferred.'],
  timeZones: null,
  actions: {},
};
export const POTATOQ_RABBITMQ_SCHEDULES_OFF =
  'potatoq on RabbitMQ keeps no periodic claims: one single-active-consumer leader sends the periodic tasks and remembers what it sent only in its memory';

/** One beat_schedule entry's recorded fire times (epoch seconds), newest first. */
export interface PeriodicFires {
  name: string;
  fires: number[];
}

/** Fire times read per entry (SQL): enough to infer a period and see a gap. */
export const FIRES_PER_ENTRY = 8;
/** potatoq's scheduler skips a run more than this late (Scheduler.max_catch_up). */
const MAX_CATCH_UP_S = 60;

const iso = (s: number) => new Date(s * 1000).toISOString();

/** The gap most firings were apart (the median), or null with fewer than three firings. */
export function inferPeriod(fires: number[]): number | null {
  if (fires.length < 3) return null;
  const gaps = fires
    .slice(1)
    .map((f, i) => fires[i]! - f)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)]!;
}

export function periodicProblems(fires: number[], now: number): ScheduleProblem[] {
  const period = inferPeriod(fires);
  const last = fires[0];
  if (period === null || last === undefined || period <= 0) return [];
  const out: ScheduleProblem[] = [];
  const late = now - last;
  if (late > 2 * period + MAX_CATCH_UP_S)
    out.push({
      kind: 'missed',
      since: iso(last + period),
      cause: `no firing for ${formatAge(late)} while the recorded firings came every ${formatAge(period)} (inferred): no worker or beat is running the scheduler, or the entry left beat_schedule`,
    });
  const gap = fires.findIndex((f, i) => i > 0 && fires[i - 1]! - f > 2 * period + MAX_CATCH_UP_S);
  if (gap > 0)
    out.push({
      kind: 'missed',
      since: iso(fires[gap]! + period),
      cause: `firings between ${iso(fires[gap]!)} and ${iso(fires[gap - 1]!)} are missing: potatoq skips runs more than ${MAX_CATCH_UP_S} s late, so the scheduler was down then`,
    });
  return out;
}

function scheduleOf(e: PeriodicFires, now: number, history: boolean): Schedule {
  const period = history ? inferPeriod(e.fires) : null;
  const last = e.fires[0];
  return {
    id: e.name,
    name: e.name,
    task: null,
    queue: null,
    cron: null,
    words: period
      ? `fired about every ${formatAge(period)} (inferred from its last ${e.fires.length} firings; the schedule is in the app's beat_schedule)`
      : history
        ? `the schedule is in the app's beat_schedule; ${e.fires.length} firing${e.fires.length === 1 ? '' : 's'} recorded`
        : "the schedule is in the app's beat_schedule; only its latest firing is recorded here",
    timeZone: null,
    paused: null,
    nextAt: null,
    last:
      last === undefined
        ? null
        : {
            at: iso(last),
            dueAt: iso(last),
            jobId: null,
            state: null,
            link: null,
            note: 'potatoq records the fire time a claim was made for, not the task it sent',
          },
    payload: null,
    problems: history ? periodicProblems(e.fires, now) : [],
  };
}

/** The entries as the Schedules tab lists them, most recently fired first. */
export function periodicSchedules(entries: PeriodicFires[], opts: { history: boolean; notes?: string[]; now?: number }): ScheduleList {
  const now = opts.now ?? Date.now() / 1000;
  const schedules = entries
    .map((e) => ({ ...e, fires: [...e.fires].sort((a, b) => b - a) }))
    .sort((a, b) => (b.fires[0] ?? 0) - (a.fires[0] ?? 0))
    .map((e) => scheduleOf(e, now, opts.history));
  return { schedules, capped: false, notes: opts.notes ?? [], readAt: new Date(now * 1000).toISOString() };
}

/** Rows `(name, fire_at)` newest first per name (the SQL readers' answer) as entries. */
export function foldFires(rows: Array<{ name: string; fire_at: number }>): PeriodicFires[] {
  const by = new Map<string, number[]>();
  for (const r of rows) {
    const fires = by.get(r.name) ?? [];
    if (fires.length < FIRES_PER_ENTRY && Number.isFinite(Number(r.fire_at))) fires.push(Number(r.fire_at));
    by.set(r.name, fires);
  }
  return [...by].map(([name, fires]) => ({ name, fires }));
}
