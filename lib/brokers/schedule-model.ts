// What an adapter declares about its system's schedules (the Schedules tab): where they come
// from, what the console cannot see, and which actions the system has, each in one sentence.
// Client-safe: no server imports.
import type { ActionDecl, Cap, EnqueueFieldDecl, ScheduleCapability } from './model';

/** How an edit happens on this system: in place, or as a delete followed by a create (said to
 *  the operator before it runs: between the two the schedule does not exist). */
export type ScheduleEditDecl = ActionDecl & { how: 'in-place' | 'replace' };

/** The Schedules tab of a system that keeps schedules. */
export interface SchedulesDecl {
  /** Where the schedules the tab lists come from, one sentence (the tab's subtitle). */
  source: string;
  /** What the console cannot see on this system and why, one sentence each. */
  cannotSee: string[];
  /** The time zones the system evaluates expressions in (QueueFlow: UTC only); null where the
   *  schedule lives in the application and the console cannot know. */
  timeZones: string[] | null;
  /** The actions this system has; an absent one is not offered. */
  actions: {
    pause?: ActionDecl;
    resume?: ActionDecl;
    delete?: ActionDecl;
    /** One firing now, outside the schedule, under an idempotency key of its own. */
    runNow?: ActionDecl;
    /** `fields`: the inputs besides name, expression, time zone and task (the enqueue form's kinds). */
    create?: ActionDecl & { fields: EnqueueFieldDecl[]; minSeconds: number };
    edit?: ScheduleEditDecl;
  };
}

/** A system's schedules: declared, or off with why (Celery: beat's schedule lives in the app). */
export type SchedulesModel = SchedulesDecl | { off: string };

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
