import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError } from './errors';
import { getAdapter } from './registry';
import { hasNul, requireCapability, withTimeout } from './service';
import { scheduleCaps, schedulesDecl, type SchedulesDecl } from './schedule-model';
import type { Schedule, ScheduleAction, ScheduleInput, ScheduleList, ScheduleOutcome, SchedulePreview } from './schedule';
import type { BrokerAdapter } from './types';

// The service's door to schedules (the Schedules tab, its route handlers and actions), like
// service.ts for the rest: timeouts, capabilities, the model's declared actions. Nothing here
// names a system: what a system has is its adapter's `model.schedules` and methods.

const NUL = () => new ConsoleError('InvalidInput', 'input contains a NUL character');

/** The adapter and its declaration, or Unsupported with the system's own reason. */
async function withSchedules(brokerId: string): Promise<{ a: BrokerAdapter; decl: SchedulesDecl }> {
  const a = getAdapter(brokerId);
  const caps = { ...scheduleCaps(a.model), ...(await a.capabilities()) };
  const cap = caps.schedules ?? { on: false };
  const decl = schedulesDecl(a.model);
  if (!cap.on || !decl || !a.listSchedules)
    throw new ConsoleError('Unsupported', cap.why ?? 'this broker has no schedules the console can read');
  return { a, decl };
}

const readMs = () => getConfig().timeouts.readMs;
const writeMs = () => getConfig().timeouts.writeMs;

export const listSchedules = (brokerId: string): Promise<ScheduleList> =>
  withTimeout('schedule list', readMs(), async () => (await withSchedules(brokerId)).a.listSchedules!());

/** One schedule; NotFound (under `id`) when the system has none by that id. */
export async function getSchedule(brokerId: string, id: string): Promise<Schedule> {
  if (hasNul(id)) throw NUL();
  const s = await withTimeout('schedule', readMs(), async () => {
    const { a } = await withSchedules(brokerId);
    if (!a.getSchedule) throw new ConsoleError('Unsupported', 'this broker cannot read one schedule by id');
    return a.getSchedule(id);
  });
  if (!s) throw new ConsoleError('NotFound', `no schedule "${id.slice(0, 100)}" on this broker`, { id: 'no such schedule' });
  return s;
}

const ACTION_DECL: Record<ScheduleAction, keyof SchedulesDecl['actions']> = {
  pause: 'pause',
  resume: 'resume',
  delete: 'delete',
  'run-now': 'runNow',
};

/** A declared action on one schedule; `confirm` must repeat its name (typed confirmation). */
export async function scheduleAction(
  brokerId: string,
  req: { id: string; action: ScheduleAction; confirm: string; key?: string },
): Promise<ScheduleOutcome> {
  if (hasNul(req)) throw NUL();
  return withTimeout(`schedule ${req.action}`, writeMs(), async () => {
    const a = await requireCapability(brokerId, 'schedules:write');
    const decl = schedulesDecl(a.model);
    if (!decl?.actions[ACTION_DECL[req.action]] || !a.scheduleAction)
      throw new ConsoleError('Unsupported', `this broker's schedules cannot ${req.action.replace('-', ' ')}`);
    const s = await getSchedule(brokerId, req.id);
    if (req.confirm !== s.name)
      throw new ConsoleError('InvalidInput', `confirm: type the schedule's name "${s.name}" to confirm`, {
        confirm: `type "${s.name}" to confirm`,
      });
    return a.scheduleAction(req.id, req.action, req.key);
  });
}

/** The calls a create (or an edit of `replaces`) would make; nothing sent. */
export async function previewSchedule(brokerId: string, input: ScheduleInput, replaces?: string): Promise<SchedulePreview> {
  if (hasNul({ input, replaces })) throw NUL();
  return withTimeout('schedule preview', readMs(), async () => {
    const { a, decl } = await withSchedules(brokerId);
    if (!(replaces ? decl.actions.edit : decl.actions.create) || !a.previewSchedule)
      throw new ConsoleError('Unsupported', `this broker's schedules cannot be ${replaces ? 'edited' : 'created'} here`);
    return a.previewSchedule(input, replaces);
  });
}

export async function createSchedule(brokerId: string, input: ScheduleInput): Promise<ScheduleOutcome> {
  if (hasNul(input)) throw NUL();
  return withTimeout('schedule create', writeMs(), async () => {
    const a = await requireCapability(brokerId, 'schedules:write');
    if (!schedulesDecl(a.model)?.actions.create || !a.createSchedule)
      throw new ConsoleError('Unsupported', "this broker's schedules cannot be created here");
    return a.createSchedule(input);
  });
}

/** An edit as the model declares it (in place, or replaced); `confirm` repeats the old name. */
export async function editSchedule(brokerId: string, id: string, confirm: string, input: ScheduleInput): Promise<ScheduleOutcome> {
  if (hasNul({ id, input })) throw NUL();
  return withTimeout('schedule edit', writeMs(), async () => {
    const a = await requireCapability(brokerId, 'schedules:write');
    if (!schedulesDecl(a.model)?.actions.edit || !a.editSchedule)
      throw new ConsoleError('Unsupported', "this broker's schedules cannot be edited here");
    const s = await getSchedule(brokerId, id);
    if (confirm !== s.name)
      throw new ConsoleError('InvalidInput', `confirm: type the schedule's name "${s.name}" to confirm`, {
        confirm: `type "${s.name}" to confirm`,
      });
    return a.editSchedule(id, input);
  });
}
