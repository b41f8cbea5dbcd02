// Stuck-work diagnosis: what an adapter found holding work up, each flag naming its cause, what
// the console can do about it and what it cannot. Client-safe; re-exported by dto.ts. One zod
// definition per shape, the type inferred from it (docs/architecture.md).
import { z } from 'zod';

/** The checks, in the order the console shows them. */
export const STUCK_CHECKS = ['worker-lost', 'over-time-limit', 'no-consumer', 'overdue', 'poison'] as const;
export const ZStuckCheck = z.enum(STUCK_CHECKS);
export type StuckCheck = z.infer<typeof ZStuckCheck>;

/** Where a flag's link goes: a task's page, a queue's tab of one declared state, the workers. */
export const ZStuckLink = z.discriminatedUnion('page', [
  z.strictObject({ page: z.literal('task'), id: z.string() }),
  z.strictObject({ page: z.literal('queue'), queue: z.string(), state: z.string() }),
  z.strictObject({ page: z.literal('workers') }),
]);
export type StuckLink = z.infer<typeof ZStuckLink>;

export const ZStuckFlag = z
  .strictObject({
    check: ZStuckCheck,
    /** The queue it concerns; null when it spans queues. */
    queue: z.string().nullable(),
    /** The tasks concerned (the first ones, at most STUCK_IDS); `count` says how many in all. */
    ids: z.array(z.string()).describe('the first tasks concerned (at most 20)'),
    /** How many tasks are concerned; null when the broker cannot count them. */
    count: z.number().int().min(0).nullable().describe('how many tasks are concerned; null when the broker cannot count them'),
    /** One sentence naming the cause, in the system's words. */
    cause: z.string().describe('names the cause, in the system’s words'),
    /** What the console can do about it (links, actions, where to look). */
    can: z.string().describe('what the console can do about it'),
    /** What it cannot: running work is its worker's, never changed by the console. */
    cannot: z.string().describe('what it cannot (it never changes running tasks)'),
    link: ZStuckLink,
    /** Seconds the condition has lasted (heartbeat age, run time, overdue by), when known. */
    seconds: z.number().nullable(),
  })
  .meta({ id: 'StuckFlag' });
export type StuckFlag = z.infer<typeof ZStuckFlag>;

export const ZDiagnosis = z
  .strictObject({
    brokerId: z.string(),
    flags: z.array(ZStuckFlag),
    /** Checks this broker cannot run, with why: unknown, never "nothing found". */
    unknown: z.array(z.strictObject({ check: ZStuckCheck, why: z.string() })).describe('checks this broker cannot run, with why'),
    /** What a check that ran did not cover (e.g. limits that are not in the message). */
    notes: z.array(z.strictObject({ check: ZStuckCheck, text: z.string() })),
    /** Findings past the first MAX_STUCK_FLAGS (in STUCK_CHECKS order), counted but not listed. */
    flagsOmitted: z.number().int().min(0).optional().describe('findings past the first 100, counted but not listed'),
    /** Scheduled tasks count as overdue past this many seconds. */
    overdueSeconds: z.number().int(),
    readAt: z.string().describe('ISO 8601 time'),
  })
  .meta({ id: 'Diagnosis', description: 'Stuck work named with its cause, and the checks this broker cannot run.' });
export type Diagnosis = z.infer<typeof ZDiagnosis>;

export const STUCK_IDS = 20;
/** At most this many findings are answered (5,000 queues nobody consumes are 5,000 findings). */
export const MAX_STUCK_FLAGS = 100;

/** The findings in STUCK_CHECKS order (the adapter's order within a check), the first
 *  MAX_STUCK_FLAGS of them, and how many more there were. */
export function capFlags(d: Diagnosis, max = MAX_STUCK_FLAGS): Diagnosis {
  const rank = (f: StuckFlag) => STUCK_CHECKS.indexOf(f.check);
  const flags = d.flags
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
    .map((x) => x.f);
  const omitted = Math.max(0, flags.length - max) + (d.flagsOmitted ?? 0);
  return { ...d, flags: flags.slice(0, max), ...(omitted ? { flagsOmitted: omitted } : {}) };
}

/** Every finding, listed or not. */
export const findingCount = (d: Diagnosis): number => d.flags.length + (d.flagsOmitted ?? 0);
/** The default overdue threshold (seconds past their due time). */
export const DEFAULT_OVERDUE_SECONDS = 120;

/** The flags that concern one task: its own, and its queue's when the task waits in it. */
export function flagsForTask(d: Diagnosis, t: { id: string; queue: string; state: string }): StuckFlag[] {
  return d.flags.filter(
    (f) =>
      f.ids.includes(t.id) || (f.check === 'no-consumer' && f.queue === t.queue && f.link.page === 'queue' && f.link.state === t.state),
  );
}
