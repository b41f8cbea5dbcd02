import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { BrokerModel, ListOrder, StateDecl } from '@/lib/brokers/schema';
import type { SdjStatus } from './model';
import { SDJ_REPLAY_EDITED } from './edit-replay';
import { SDJ_ENQUEUE } from './enqueue-fields';
import { SDJ_SCHEDULES } from './schedules';

// What the console declares about Simple Durable Jobs (v4.5.1): its statuses as the states, and
// each action in the library's own terms (docs/systems/simple-durable-jobs.md, "Writes").
//
// Six of SDJ's seven statuses are states. The seventh, `failed`, is the dead-letter tab: the
// library dead-letters every terminal failure (`dead_lettered_at` set, always `status =
// 'failed'`), so a failed job is a dead letter, and listing it twice would count it twice. A
// delayed job is `pending` with `run_at` ahead: no index the library creates lists pending jobs
// by `run_at` on both databases (PostgreSQL's dequeue index leads with priority, MySQL's with
// `dq_eligible_at` over every pending row), so there is no scheduled state; the pending tab shows
// each job's run time.

/** The statuses shown as states, in tab order. */
export const SDJ_STATES = ['pending', 'running', 'waiting', 'paused', 'completed', 'cancelled'] as const satisfies readonly SdjStatus[];
export type SdjState = (typeof SDJ_STATES)[number];

export function sdjState(state: string): SdjState {
  if ((SDJ_STATES as readonly string[]).includes(state)) return state as SdjState;
  throw new ConsoleError(
    'InvalidInput',
    `Simple Durable Jobs has no "${state.slice(0, 40)}" state here (${SDJ_STATES.join(', ')}; failed jobs are the dead letters)`,
    { state: 'unknown state' },
  );
}

/** Finished jobs, the results page's statuses. */
export const SDJ_FINISHED = ['completed', 'failed', 'cancelled'] as const satisfies readonly SdjStatus[];

/** The other statuses' order: `idx_jobs_status_created (status, created_at DESC)`. */
const NEWEST: ListOrder = { by: 'time', field: 'createdAt', dir: 'desc', label: 'newest enqueued first' };

const STATES: StateDecl[] = [
  // Pending in claim order (priority, then due time: claim-order.ts); running by claim time; the
  // others newest first by created_at (the library's `idx_jobs_status_created`).
  {
    key: 'pending',
    label: 'Pending',
    time: { field: 'runAt', label: 'Runs' },
    order: { by: 'claim', label: 'in the order workers claim them: highest priority first, then soonest due' },
    owned: false,
    role: 'waiting',
  },
  // By claim time, oldest first (claim-order.ts); `startedAt`, not `claimedAt`: the database keeps
  // milliseconds on MySQL, so claims within one share a time and the order among them is the id's.
  {
    key: 'running',
    label: 'Running',
    time: { field: 'startedAt', label: 'Started' },
    order: { by: 'time', field: 'startedAt', dir: 'asc', label: 'oldest start first' },
    owned: true,
    role: 'running',
  },
  { key: 'waiting', label: 'Waiting on sub-jobs', time: { field: 'createdAt', label: 'Enqueued' }, order: NEWEST, owned: false },
  { key: 'paused', label: 'Paused', time: { field: 'createdAt', label: 'Enqueued' }, order: NEWEST, owned: false },
  { key: 'completed', label: 'Completed', time: { field: 'completedAt', label: 'Completed' }, order: NEWEST, owned: false },
  { key: 'cancelled', label: 'Cancelled', time: { field: 'completedAt', label: 'Cancelled' }, order: NEWEST, owned: false },
];

export const SDJ_MODEL: BrokerModel = {
  system: 'sdj',
  states: STATES,
  task: {
    noun: 'job',
    nouns: 'jobs',
    name: 'Type',
    payload: {
      shape: 'value',
      label: 'Args',
      help: "The job's args: one JSON value (usually an object) the Go handler's argument is unmarshalled from.",
    },
    deliveries: { label: 'Attempt', help: "SDJ's `attempt`: +1 each time a worker claims the job; a requeue sets it to 0" },
  },
  // Each schedule name's last firing, read only (schedules.ts): the schedules are in the app's code.
  schedules: SDJ_SCHEDULES,
  workers: {
    known:
      'Simple Durable Jobs keeps no worker registry: the workers listed are the lock holders (locked_by) of running jobs, derived from those jobs. An idle worker holds no job and is not listed. The time is its newest heartbeat, else its newest claim.',
    none: 'No job is running, so no worker holds one: idle workers are not stored anywhere the console can read.',
    seen: 'Heartbeat',
  },
  results: {
    does: 'Finished jobs (completed, failed, cancelled) with their stored result or last error; a worker deletes them by its retention (completed after 30 days, failed after 90, by default).',
    statuses: SDJ_FINISHED.map((s) => s.toUpperCase()),
    all: 'every finished job, newest first',
  },
  actions: {
    replay: {
      does: "The library's Requeue (the dashboard's Retry): the job goes back to pending under its own id, attempt 0, with its error, result, lock, times and checkpoints cleared and its fan-out sub-jobs deleted; arguments, priority and unique key stay. A fan-out sub-job is refused: requeue its parent.",
      bulkRate: 50,
    },
    discard: {
      does: "The library's DeleteJob: the dead letter's row, checkpoints and signals are deleted. A workflow parent with sub-jobs is refused (the library deletes it only with its subtree), and so is a sub-job whose parent is still running.",
    },
    deleteFamily: {
      does: "The library's DeleteWorkflowSubtree (the dashboard's delete_subtree): the workflow's parent, every sub-job of its fan-outs at every level, their checkpoints and signals, and the fan-outs themselves are deleted, in the library's order, in one transaction.",
      guard:
        'Refused while a worker runs the parent or any job of its subtree, for a sub-job whose fan-out parent is not finished, and for a subtree deeper than 256 levels (the library refuses it too): nothing is deleted then.',
    },
    revoke: {
      words: { verb: 'Cancel', past: 'cancelled' },
      does: "The library's CancelJob: pending and waiting jobs become cancelled ('cancelled by user'), with the live sub-jobs of their fan-outs; they never run. Running jobs are refused and keep running.",
      bulk: 'Pending and waiting jobs are cancelled. Jobs a worker claimed since the snapshot are refused and keep running.',
    },
    purge: {
      does: "The library's PurgeJobs for the queue's pending and paused jobs: their rows, checkpoints, signals and unique locks are deleted. Fan-out parents and sub-jobs of a live parent are kept, and so are rows a worker holds.",
      what: 'every pending and paused job (delayed ones included)',
      counts: ['pending', 'paused'],
      stays: 'Running, waiting and finished jobs stay, and so do dead letters.',
    },
    pause: {
      does: "The library's PauseQueue (queue_states): workers claim no new job from the queue; running jobs finish and pending ones wait.",
      resume: "The library's UnpauseQueue: workers claim from the queue again at their next poll.",
    },
    enqueue: SDJ_ENQUEUE,
    replayEdited: SDJ_REPLAY_EDITED,
  },
};
