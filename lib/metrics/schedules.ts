import 'server-only';
import { Gauge, Registry } from 'prom-client';
import type { ScheduleList } from '@/lib/brokers/schedule';
import { schedulesDecl } from '@/lib/brokers/schedule-model';
import { brokerList, brokerModel, toConsoleError } from '@/lib/brokers/service';
import { listSchedules } from '@/lib/brokers/schedules-service';
import { cached } from './snapshot';

// Schedule series for /metrics: each broker whose system declares schedules, read at most once
// a minute (QueueFlow looks up each schedule's last job: dearer than an overview), every problem
// one series with its kind, so "a schedule missed a firing" is one alert rule across systems.

export const SCHEDULES_CACHE_MS = 60_000;
/** Schedules per broker exported one by one (their names are labels). */
export const MAX_SCHEDULE_SERIES = 200;

export interface ScheduleSample {
  broker: string;
  list: ScheduleList | null;
  error: string | null;
}

export async function takeScheduleSamples(): Promise<ScheduleSample[]> {
  const brokers = brokerList().filter((b) => schedulesDecl(brokerModel(b.id)));
  return Promise.all(
    brokers.map(async (b) => {
      try {
        return { broker: b.id, list: await listSchedules(b.id), error: null };
      } catch (e) {
        return { broker: b.id, list: null, error: toConsoleError(e).code };
      }
    }),
  );
}

export async function renderSchedules(samples: ScheduleSample[]): Promise<string> {
  const r = new Registry();
  const read = new Gauge({
    name: 'potatoq_console_schedules_read',
    help: 'Whether the last read of the broker schedules succeeded (1) or failed (0); only brokers whose system declares schedules.',
    labelNames: ['broker'],
    registers: [r],
  });
  const count = new Gauge({
    name: 'potatoq_console_schedules',
    help: 'Schedules the console read on the broker.',
    labelNames: ['broker'],
    registers: [r],
  });
  const problem = new Gauge({
    name: 'potatoq_console_schedule_problem',
    help: 'A schedule that missed a firing (kind="missed": scheduler down, no worker, catch-up collapsed) or whose last firing failed (kind="failing"); the cause is on the Schedules tab. Absent: no problem.',
    labelNames: ['broker', 'schedule', 'kind'],
    registers: [r],
  });
  const last = new Gauge({
    name: 'potatoq_console_schedule_last_fire_timestamp_seconds',
    help: 'When the schedule last fired, as the system records it.',
    labelNames: ['broker', 'schedule'],
    registers: [r],
  });
  for (const s of samples) {
    read.set({ broker: s.broker }, s.list ? 1 : 0);
    if (!s.list) continue;
    count.set({ broker: s.broker }, s.list.schedules.length);
    for (const x of s.list.schedules.slice(0, MAX_SCHEDULE_SERIES)) {
      for (const kind of new Set(x.problems.map((p) => p.kind))) problem.set({ broker: s.broker, schedule: x.name, kind }, 1);
      if (x.last) last.set({ broker: s.broker, schedule: x.name }, Date.parse(x.last.at) / 1000);
    }
  }
  return r.metrics();
}

const g = globalThis as unknown as { __potatoqScheduleMetrics?: () => Promise<string> };

/** The schedule series, shared by scrapes for SCHEDULES_CACHE_MS. */
export function scheduleMetricsText(): Promise<string> {
  g.__potatoqScheduleMetrics ??= cached(async () => renderSchedules(await takeScheduleSamples()), SCHEDULES_CACHE_MS);
  return g.__potatoqScheduleMetrics();
}
