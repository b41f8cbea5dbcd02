import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { BrokerModel, ListOrder, StateDecl } from '@/lib/brokers/schema';
import { QUEUEFLOW_ENQUEUE } from './enqueue';
import { QUEUEFLOW_CALLS } from './import-value';
import { QUEUEFLOW_SCHEDULES } from './schedules-model';
import { QF_WORKFLOWS } from './workflows-model';

/** QueueFlow's job statuses that are waiting or running work, as its API names them; the
 *  finished ones (completed, failed, cancelled) are the console's results. */
export const QF_STATUSES = ['pending', 'retrying', 'running'] as const;
export const QF_FINISHED = ['completed', 'failed', 'cancelled'] as const;

/** The console's states of QueueFlow's waiting and running work: its statuses, with a `pending`
 *  job whose `scheduled_at` is still ahead shown as `scheduled` (the server's `/queues` counts
 *  those apart from the claimable ones too). */
export const QF_STATES = ['pending', 'scheduled', 'retrying', 'running'] as const;
export type QfState = (typeof QF_STATES)[number];

export function qfState(state: string): QfState {
  if ((QF_STATES as readonly string[]).includes(state)) return state as QfState;
  throw new ConsoleError('InvalidInput', `QueueFlow has no "${state.slice(0, 40)}" state here (pending, scheduled, retrying or running)`, {
    state: 'unknown state',
  });
}

/** A waiting or running job's state: its status, `scheduled` for a pending job not due yet. */
export function stateOf(j: { status: string; scheduled_at?: string | null }, now = Date.now()): string {
  if (j.status !== 'pending' || !j.scheduled_at) return j.status;
  return Date.parse(j.scheduled_at) > now ? 'scheduled' : 'pending';
}

/** Every list of QueueFlow's API is by `created_at`, newest first (its only order), never by
 *  priority or run time: not the order its workers lease jobs in. */
const NEWEST: ListOrder = { by: 'time', field: 'createdAt', dir: 'desc', label: 'newest enqueued first' };

const STATES: StateDecl[] = [
  { key: 'pending', label: 'Pending', time: { field: 'runAt', label: 'Runs' }, order: NEWEST, owned: false, role: 'waiting' },
  { key: 'scheduled', label: 'Scheduled', time: { field: 'runAt', label: 'Runs at' }, order: NEWEST, owned: false, role: 'scheduled' },
  { key: 'retrying', label: 'Retrying', time: { field: 'runAt', label: 'Retries' }, order: NEWEST, owned: false },
  { key: 'running', label: 'Running', time: { field: 'claimedAt', label: 'Started' }, order: NEWEST, owned: true, role: 'running' },
];

export const QUEUEFLOW_MODEL: BrokerModel = {
  system: 'queueflow',
  states: STATES,
  task: {
    noun: 'job',
    nouns: 'jobs',
    payload: { shape: 'value', label: 'Payload', help: "The job's payload: one JSON object, handed to its handler as it was created." },
    deliveries: {
      label: 'Deliveries',
      help: "QueueFlow's `delivery_count`: how many times a worker leased the job (its retries are `retry_count`)",
    },
  },
  schedules: QUEUEFLOW_SCHEDULES,
  calls: QUEUEFLOW_CALLS,
  workers: {
    known:
      "QueueFlow's API has no worker registry: its remote workers are anonymous lease holders. A running job's Started time is when a worker leased it.",
    none: 'QueueFlow keeps no worker registry: the console cannot list its workers.',
    seen: 'Heartbeat',
  },
  workflows: QF_WORKFLOWS,
  results: {
    does: "QueueFlow's finished jobs (completed, failed, cancelled) with their result or error; they go by its retention.",
    statuses: QF_FINISHED.map((x) => x.toUpperCase()),
    all: 'every finished job, newest first',
  },
  actions: {
    replay: {
      does: 'QueueFlow creates a new pending job with the same queue, task, payload and settings and a new id; the dead letter stays, marked replayed with that job. Each letter replays once: a second replay is refused as "already replayed".',
      // One POST per letter; paced so a large replay does not flood the queue its workers lease from.
      bulkRate: 20,
      newTask: true,
    },
    discard: { does: 'QueueFlow has no way to delete a dead letter: they leave only by its retention.' },
    revoke: {
      words: { verb: 'Cancel', past: 'cancelled' },
      does: 'Pending and retrying jobs are cancelled (QueueFlow keeps them as cancelled, with "cancelled by user"); they never run. Running jobs are refused and keep running.',
      bulk: 'Pending and retrying jobs are cancelled. Jobs a worker started since the snapshot are refused and keep running.',
    },
    purge: {
      does: "QueueFlow's bulk cancel of the queue's pending and retrying jobs (future-dated ones included); they stay as cancelled jobs.",
      what: 'every pending and retrying job (scheduled ones included)',
      counts: ['pending', 'scheduled', 'retrying'],
      stays: 'Running jobs finish. Dead letters and finished jobs stay.',
    },
    pause: {
      does: "QueueFlow stops handing this queue's jobs (this tenant's) to workers: pending jobs wait, running ones finish.",
      resume: 'QueueFlow hands the waiting jobs to workers again at once.',
    },
    enqueue: QUEUEFLOW_ENQUEUE,
    replayEdited: {
      does: "A new job with a new id runs your edits: the payload (a JSON object: dates go as ISO 8601 text), queue and priority; task name, retries, timeout and backoff stay the letter's (QueueFlow has no positional args). QueueFlow's replay takes no changes, so the letter's queue is paused for a moment, the letter replayed (marked once), the edited job created and the unedited copy cancelled before any worker can take it, then the queue resumed; other jobs of that queue wait meanwhile. One console at a time edits a queue's letters (another waits a few seconds, then is refused with nothing changed); if the console stops mid-way, the next console to read this broker finishes the edit and resumes the queue, only if the console had paused it.",
      sameId: false,
      noArgs: 'QueueFlow jobs take one JSON object (the payload) and no positional arguments: edit its keys',
      kwargs: { label: 'Payload (a JSON object)', entry: 'payload key' },
      // JSON only: dates, UUIDs and Decimals would reach its workers as text anyway.
      kinds: [],
    },
  },
};
