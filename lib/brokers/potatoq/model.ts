import 'server-only';
import { POTATOQ_RABBITMQ_SCHEDULES_OFF, POTATOQ_REDIS_SCHEDULES, POTATOQ_SQL_SCHEDULES } from './schedules';
import { ConsoleError } from '@/lib/brokers/errors';
import { POTATOQ_ENQUEUE } from './enqueue-fields';
import { POTATOQ_CALLS, POTATOQ_RABBITMQ_CALLS, POTATOQ_REDIS_WAITING, POTATOQ_SQL_WAITING } from './calls';
import type { ActionDecl, BrokerModel, StateDecl } from '@/lib/brokers/schema';

/** potatoq's job states (`state` 0, 1, 2 in its tables), as the console names them. */
export const POTATOQ_STATES = ['ready', 'scheduled', 'running'] as const;
export type PotatoqState = (typeof POTATOQ_STATES)[number];

/** A listed state as potatoq's reads need it; anything else was never declared here. */
export function potatoqState(state: string): PotatoqState {
  if ((POTATOQ_STATES as readonly string[]).includes(state)) return state as PotatoqState;
  throw new ConsoleError('InvalidInput', `potatoq has no "${state.slice(0, 40)}" state (ready, scheduled or running)`, {
    state: 'unknown state',
  });
}

const STATES: StateDecl[] = [
  {
    key: 'ready',
    label: 'Ready',
    time: { field: 'createdAt', label: 'Enqueued' },
    order: { by: 'claim', label: 'in the order workers claim them: highest priority first, then oldest' },
    owned: false,
    role: 'waiting',
  },
  {
    key: 'scheduled',
    label: 'Scheduled',
    time: { field: 'runAt', label: 'Runs' },
    order: { by: 'time', field: 'runAt', dir: 'asc', label: 'soonest run time first' },
    owned: false,
    role: 'scheduled',
  },
  {
    key: 'running',
    label: 'Running',
    time: { field: 'claimedAt', label: 'Claimed' },
    order: { by: 'time', field: 'claimedAt', dir: 'asc', label: 'oldest claim first' },
    owned: true,
    role: 'running',
  },
];

// potatoq's CLI has no discard.
const DISCARD: ActionDecl = { does: 'The letters are deleted for good. Nothing else is touched.' };
const REVOKE = {
  cli: 'potatoq revoke {ids}',
  does: 'Waiting tasks are removed and get a REVOKED result. Running tasks are refused and keep running.',
  bulk: 'Waiting tasks are removed and get a REVOKED result. Tasks a worker claimed since the snapshot are skipped and keep running.',
};

/** potatoq cannot hold a queue back: every store's `pause` capability is off with this. */
/** Why potatoq has no Workflows view: it keeps no run of a DAG, only tasks linked by ids. */
export const POTATOQ_NO_WORKFLOWS =
  'potatoq keeps no workflow runs: a chord or chain is tasks linked by their canvas ids (root, parent), not a stored DAG with step states';

export const POTATOQ_NO_PAUSE = {
  on: false,
  why: "potatoq has no queue pause: stop the queue's workers (or leave it out of their -Q) instead",
} as const;

/** Why potatoq's results list has no time range: every store keeps the finish time inside the record. */
export const POTATOQ_NO_RESULT_RANGE = {
  on: false,
  why: "potatoq keeps a result's finish time inside its stored record, with no column or index to filter on",
} as const;

/** potatoq's tasks are Celery-shaped calls; `deliveries` is its own column (and message field). */
const TASK: NonNullable<BrokerModel['task']> = {
  noun: 'task',
  nouns: 'tasks',
  payload: { shape: 'call' },
  deliveries: { label: 'Deliveries', help: "potatoq's `deliveries`: how many times a worker claimed it (0 again after a retry)" },
};

/** potatoq on SQLite or PostgreSQL: one table of jobs, one of dead letters. */
/** potatoq's stored result records (states.py: the states a record is stored in). */
const RESULTS: NonNullable<BrokerModel['results']> = {
  does: "potatoq's stored result records (SUCCESS, FAILURE, RETRY, REVOKED); they expire after result_expires.",
  statuses: ['SUCCESS', 'FAILURE', 'RETRY', 'REVOKED'],
  all: 'every stored record',
};

/** potatoq's worker heartbeats (`potatoq status` reads the same), every 5 s. */
const WORKERS: NonNullable<BrokerModel['workers']> = {
  known: 'From the heartbeats potatoq workers write every 5 s (what `potatoq status` shows): stale after 15 s, dead after 60 s.',
  none: 'No worker heartbeats are stored.',
  start: 'potatoq worker',
  seen: 'Heartbeat',
};

export const POTATOQ_TABLE_MODEL: BrokerModel = {
  system: 'potatoq',
  states: STATES,
  schedules: POTATOQ_SQL_SCHEDULES,
  results: RESULTS,
  workers: WORKERS,
  task: TASK,
  actions: {
    replay: {
      does: 'Each letter goes back to its queue as a ready task (like `potatoq dead retry`); its stored result is removed.',
      cli: 'potatoq dead retry {ids}',
      bulkRate: null,
    },
    replayEdited: {
      does: 'The letter goes back as a ready task under the same id, with your edits and everything else as `potatoq dead retry` writes it (eta dropped); its stored result is removed, and the letter is kept if a task with that id is already waiting or running.',
      sameId: true,
    },
    discard: DISCARD,
    revoke: REVOKE,
    purge: {
      does: "Deletes the queue's waiting rows (ready and scheduled), as `potatoq purge` does.",
      cli: 'potatoq purge -Q {queue} -f',
      what: 'every waiting task (ready and scheduled)',
      counts: ['ready', 'scheduled'],
      stays: 'Running tasks and dead letters stay. No results are written.',
    },
    enqueue: POTATOQ_ENQUEUE,
  },
  calls: { ...POTATOQ_CALLS, waiting: POTATOQ_SQL_WAITING },
};

/** potatoq on RabbitMQ: messages in queues, dead letters in `<queue>.dlq`, delays in potatoq's delay queues. */
export const POTATOQ_RABBITMQ_MODEL: BrokerModel = {
  system: 'potatoq',
  states: STATES,
  schedules: { off: POTATOQ_RABBITMQ_SCHEDULES_OFF },
  results: RESULTS,
  workers: WORKERS,
  task: TASK,
  actions: {
    // Publishing thousands of letters at once floods the queue its workers read: paced by default.
    replay: {
      does: 'Each letter is published back to its queue as a ready task (like `potatoq dead retry`) and removed from the DLQ once the broker confirms.',
      cli: 'potatoq dead retry {ids}',
      bulkRate: 50,
    },
    discard: DISCARD,
    revoke: REVOKE,
    purge: {
      does: "RabbitMQ's `queue.purge`: takes the queue's ready messages.",
      cli: 'potatoq purge -Q {queue} -f',
      what: 'every ready message',
      counts: ['ready'],
      stays: "Delayed tasks (in potatoq's delay queues), running (unacknowledged) tasks and dead letters stay. No results are written.",
    },
    enqueue: POTATOQ_ENQUEUE,
    replayEdited: {
      does: 'The letter is published to its (edited) queue under the same id, with your edits and everything else as `potatoq dead retry` writes it (eta dropped), and removed from the DLQ only after the broker confirms; a queue that does not exist yet is refused and the letter stays.',
      sameId: true,
    },
    convert: {
      what: 'Celery letter',
      does: 'The Celery message is rebuilt as the potatoq message below (same id; Celery callbacks, chains and chords are dropped) and published to its queue; the dead letter is removed only after the broker confirms.',
    },
  },
  calls: POTATOQ_RABBITMQ_CALLS,
};

/** potatoq on Redis or Valkey: sorted sets per queue, one hash per task, dead letters in `P:dead`. */
export const POTATOQ_REDIS_MODEL: BrokerModel = {
  system: 'potatoq',
  // A running task's time on Redis is its lease deadline (claim + worker_dead_after, extended by
  // each heartbeat); potatoq stores no claim time. A deadline in the past: its worker is gone.
  states: STATES.map((s) =>
    s.key === 'running'
      ? {
          ...s,
          time: { field: 'runAt', label: 'Lease ends' },
          order: { by: 'time', field: 'runAt', dir: 'asc', label: 'soonest lease end first' },
        }
      : s,
  ),
  schedules: POTATOQ_REDIS_SCHEDULES,
  results: RESULTS,
  workers: WORKERS,
  task: TASK,
  actions: {
    replay: {
      does: 'Each letter goes back to the end of its queue as a ready task (like `potatoq dead retry`), its stored result is removed and its eta dropped. Letters potatoq cannot decode are kept.',
      cli: 'potatoq dead retry {ids}',
      bulkRate: null,
    },
    discard: { does: 'The letters are deleted for good (also entries left behind by `potatoq revoke`). Nothing else is touched.' },
    revoke: {
      cli: 'potatoq revoke {ids}',
      does: 'Waiting tasks are removed and get a REVOKED result. Running tasks and dead letters are refused and stay as they are (discard a letter instead).',
      bulk: 'Waiting tasks are removed and get a REVOKED result. Tasks a worker claimed since the snapshot are skipped and keep running.',
    },
    purge: {
      does: "Deletes the queue's waiting tasks (ready and scheduled) in atomic slices, skipping any task a worker claims meanwhile.",
      cli: 'potatoq purge -Q {queue} -f',
      what: 'every waiting task (ready and scheduled)',
      counts: ['ready', 'scheduled'],
      stays: 'Running tasks and dead letters stay. No results are written.',
    },
    enqueue: POTATOQ_ENQUEUE,
    replayEdited: {
      does: 'The letter goes back as a ready task under the same id, at the end of its (edited) queue, with your edits and everything else as `potatoq dead retry` writes it (eta dropped), in one atomic step; its stored result is removed, and the letter is kept if it changed meanwhile.',
      sameId: true,
    },
  },
  calls: { ...POTATOQ_CALLS, waiting: POTATOQ_REDIS_WAITING },
};
