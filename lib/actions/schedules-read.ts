import 'server-only';
import { getAuthConfig } from '@/lib/auth/config';
import type { Schedule, ScheduleList } from '@/lib/brokers/schedule';
import { getSchedule, listSchedules } from '@/lib/brokers/schedules-service';

// The Schedules tab's reads, shared by its route handlers and the page's prefetch. A schedule's
// payload is a task's arguments: hidden where the console hides arguments.

const HIDDEN = '(hidden: arguments are hidden on this console)';
const redacted = (s: Schedule): Schedule => (getAuthConfig().redactArgs && s.payload !== null ? { ...s, payload: HIDDEN } : s);

export async function schedulesRead(broker: string): Promise<ScheduleList> {
  const list = await listSchedules(broker);
  return { ...list, schedules: list.schedules.map(redacted) };
}

export const scheduleRead = async (broker: string, id: string): Promise<Schedule> => redacted(await getSchedule(broker, id));
