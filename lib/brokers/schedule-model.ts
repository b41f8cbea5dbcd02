// Reading a system's schedule declaration (`BrokerModel.schedules`, declared in model.ts): the
// declaration when there is one, and the capabilities it implies. Client-safe.
import type { Cap, ScheduleCapability, SchedulesDecl, SchedulesModel } from './model';

export type { ScheduleEditDecl, SchedulesDecl, SchedulesModel } from './model';

/** The declaration, or null when the system has none (off or absent). */
export const schedulesDecl = (m: { schedules?: SchedulesModel } | null | undefined): SchedulesDecl | null =>
  m?.schedules && !('off' in m.schedules) ? m.schedules : null;

const NONE = "this system's adapter declares no schedules";

/** The schedule capabilities a model implies: read on where declared, write on where it
 *  declares an action that changes something. An adapter's own answer overrides these. */
export function scheduleCaps(m: { schedules?: SchedulesModel } | null | undefined): Record<ScheduleCapability, Cap> {
  const s = m?.schedules;
  if (!s) return { schedules: { on: false, why: NONE }, 'schedules:write': { on: false, why: NONE } };
  if ('off' in s) return { schedules: { on: false, why: s.off }, 'schedules:write': { on: false, why: s.off } };
  const a = s.actions;
  const writes = !!(a.pause || a.resume || a.delete || a.runNow || a.create || a.edit);
  return {
    schedules: { on: true },
    'schedules:write': writes ? { on: true } : { on: false, why: 'the console can only read the schedules of this system' },
  };
}
