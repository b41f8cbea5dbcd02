// Stuck-work diagnosis: what an adapter found holding work up, each flag naming its cause, what
// the console can do about it and what it cannot. Client-safe; re-exported by dto.ts.

/** The checks, in the order the console shows them. */
export const STUCK_CHECKS = ['worker-lost', 'over-time-limit', 'no-consumer', 'overdue', 'poison'] as const;
export type StuckCheck = (typeof STUCK_CHECKS)[number];

/** Where a flag's link goes: a task's page, a queue's tab of one declared state, the workers. */
export type StuckLink = { page: 'task'; id: string } | { page: 'queue'; queue: string; state: string } | { page: 'workers' };

export interface StuckFlag {
  check: StuckCheck;
  /** The queue it concerns; null when it spans queues. */
  queue: string | null;
  /** The tasks concerned (the first ones, at most STUCK_IDS); `count` says how many in all. */
  ids: string[];
  /** How many tasks are concerned; null when the broker cannot count them. */
  count: number | null;
  /** One sentence naming the cause, in the system's words. */
  cause: string;
  /** What the console can do about it (links, actions, where to look). */
  can: string;
  /** What it cannot: running work is its worker's, never changed by the console. */
  cannot: string;
  link: StuckLink;
  /** Seconds the condition has lasted (heartbeat age, run time, overdue by), when known. */
  seconds: number | null;
}

export interface Diagnosis {
  brokerId: string;
  flags: StuckFlag[];
  /** Checks this broker cannot run, with why: unknown, never "nothing found". */
  unknown: Array<{ check: StuckCheck; why: string }>;
  /** What a check that ran did not cover (e.g. limits that are not in the message). */
  notes: Array<{ check: StuckCheck; text: string }>;
  /** Scheduled tasks count as overdue past this many seconds. */
  overdueSeconds: number;
  readAt: string;
}

export const STUCK_IDS = 20;
/** The default overdue threshold (seconds past their due time). */
export const DEFAULT_OVERDUE_SECONDS = 120;

/** The flags that concern one task: its own, and its queue's when the task waits in it. */
export function flagsForTask(d: Diagnosis, t: { id: string; queue: string; state: string }): StuckFlag[] {
  return d.flags.filter(
    (f) =>
      f.ids.includes(t.id) || (f.check === 'no-consumer' && f.queue === t.queue && f.link.page === 'queue' && f.link.state === t.state),
  );
}
