import 'server-only';
import type { BrokerModel, ListOrder, StateDecl, TypedKind } from '@/lib/brokers/schema';
import { CELERY_ENQUEUE } from './enqueue-fields';
import { CELERY_RABBITMQ_CALLS, CELERY_REDIS_CALLS } from './calls';

/** Celery's waiting and reserved messages, as the console names them (keys shared with the
 *  contract's vocabulary: a Celery "reserved" message is held by a worker, like potatoq's running). */
export const CELERY_STATES = ['ready', 'scheduled', 'running'] as const;
export type CeleryState = (typeof CELERY_STATES)[number];

const RESERVED_ORDER: ListOrder = { by: 'time', field: 'claimedAt', dir: 'asc', label: 'oldest reservation first' };

const STATES: StateDecl[] = [
  {
    key: 'ready',
    label: 'Waiting',
    time: { field: 'runAt', label: 'ETA' },
    order: { by: 'claim', label: 'in the order workers receive them: by priority, then oldest' },
    owned: false,
    role: 'waiting',
  },
  {
    key: 'scheduled',
    label: 'Waiting (future ETA)',
    time: { field: 'runAt', label: 'ETA' },
    order: { by: 'time', field: 'runAt', dir: 'asc', label: 'soonest ETA first' },
    owned: false,
    role: 'scheduled',
  },
  {
    key: 'running',
    label: 'Reserved by a worker',
    time: { field: 'claimedAt', label: 'Reserved' },
    order: RESERVED_ORDER,
    owned: true,
    role: 'running',
  },
];

/** Celery's tasks are calls (args, kwargs); the count a message carries is its `retries` header. */
const TASK: NonNullable<BrokerModel['task']> = {
  noun: 'task',
  nouns: 'tasks',
  payload: { shape: 'call' },
  deliveries: {
    label: 'Retries',
    help: "Celery's `retries` header: how many times the task called retry() before this message (0 on its first run)",
  },
};

/** Celery on Redis: kombu's lists per queue and priority bucket, failures in the result backend. */
/** Celery's `celery-task-meta-*` records (STARTED only with `task_track_started`). */
const RESULTS: NonNullable<BrokerModel['results']> = {
  does: "Celery's result records (celery-task-meta-*: SUCCESS, FAILURE, RETRY, REVOKED, STARTED); they expire after result_expires.",
  statuses: ['SUCCESS', 'FAILURE', 'RETRY', 'REVOKED', 'STARTED'],
  all: 'every stored record',
};

/** kombu's JSON `__type__` markers an edited value can be sent as; it has no sets or timedeltas. */
const CELERY_EDIT_KINDS: TypedKind[] = ['datetime', 'date', 'time', 'uuid', 'decimal', 'bytes'];

/** Celery keeps no heartbeats in the broker (they are events): the console asks, as Flower does. */
const WORKERS: NonNullable<BrokerModel['workers']> = {
  known:
    'Live Celery workers: those that answer a broadcast `inspect` (stats, active, active_queues, registered, what Flower asks) within inspectTimeoutMs. Celery keeps no heartbeats in the broker, so a worker that does not answer is not listed.',
  none: 'No Celery worker answered the broadcast inspect.',
  start: 'celery -A <your app> worker',
  seen: 'Answered',
};

/** Why the console shows no schedules for Celery (the Schedules tab is not offered). */
const SCHEDULES_OFF = {
  off: "Celery beat's schedule lives in the application (beat_schedule, or django-celery-beat's tables in the app's own database) and its last runs in beat's own state file; the broker holds neither, and a firing is an ordinary task message",
};

export const CELERY_REDIS_MODEL: BrokerModel = {
  system: 'celery',
  schedules: SCHEDULES_OFF,
  results: RESULTS,
  workers: WORKERS,
  task: TASK,
  states: STATES,
  actions: {
    replay: {
      does: "Each failure's task is sent again to the queue it ran from, with the same id, name, args and kwargs (stored by result_extended), as a message app.send_task would write; the FAILURE record is removed, and the new run writes its own result.",
      bulkRate: 50,
    },
    discard: { does: 'The FAILURE records are deleted from the result backend. No message is touched.' },
    revoke: {
      does: 'Each waiting message is removed from its Redis list (atomically, so no worker gets it) and gets a REVOKED result; then a revoke is broadcast to live workers as `celery control revoke` does. Messages a worker already reserved are refused and left alone. A message with no task id (not JSON, a bare pickle) is only removed: nothing is stored or broadcast for it.',
      cli: 'celery -A <app> control revoke {ids}',
      bulk: 'Waiting messages are removed and get a REVOKED result, and the revoke is broadcast; messages a worker reserved since the snapshot are skipped.',
    },
    purge: {
      does: "Deletes the queue's lists (every priority bucket), as `celery purge -Q` does.",
      cli: 'celery -A <app> purge -Q {queue} -f',
      what: 'every waiting message (all priorities, ETAs included)',
      counts: ['ready', 'scheduled'],
      stays: 'Messages reserved by workers (running or holding an ETA) stay, and so do results and failures.',
    },
    enqueue: CELERY_ENQUEUE,
    replayEdited: {
      does: "The failure's task is sent again under the same id (Celery keeps a task's id across retries) as app.send_task would send it: its stored name, with your edited args, kwargs, queue or priority and the rest as result_extended recorded them; the FAILURE record is removed only after the message is in Redis, and the failure is kept if a message with this id is already waiting or reserved.",
      sameId: true,
      kinds: CELERY_EDIT_KINDS,
    },
  },
  calls: CELERY_REDIS_CALLS,
};

/** Celery on RabbitMQ: counts only (no browse), failures in the result backend. */
export const CELERY_RABBITMQ_MODEL: BrokerModel = {
  system: 'celery',
  schedules: SCHEDULES_OFF,
  results: RESULTS,
  workers: WORKERS,
  task: TASK,
  states: [
    {
      key: 'ready',
      label: 'Ready (ETAs included)',
      time: { field: 'runAt', label: 'ETA' },
      order: { by: 'claim', label: 'in the order RabbitMQ delivers them' },
      owned: false,
      role: 'waiting',
    },
    {
      key: 'running',
      label: 'Unacknowledged (reserved)',
      time: { field: 'claimedAt', label: 'Reserved' },
      order: RESERVED_ORDER,
      owned: true,
      role: 'running',
    },
  ],
  actions: {
    ...CELERY_REDIS_MODEL.actions,
    replay: {
      ...CELERY_REDIS_MODEL.actions.replay,
      does: "Each failure's task is published again to the queue it ran from (publisher confirms), with the same id, name, args and kwargs (stored by result_extended), as app.send_task would; the FAILURE record is removed. RabbitMQ can't tell whether the id is still queued, so replay a failure once.",
    },
    revoke: {
      does: 'A revoke is broadcast to live workers, as `celery control revoke` does: they skip the task when they get it. The message itself stays in RabbitMQ (a queued message cannot be taken out of a queue), so a worker started later without the revoked ids (no --statedb) still runs it.',
      cli: 'celery -A <app> control revoke {ids}',
      bulk: 'A revoke is broadcast to live workers for every selected id; the messages stay in RabbitMQ.',
    },
    purge: {
      does: "RabbitMQ's `queue.purge`, as `celery purge -Q` does: takes the queue's ready messages (ETA messages still in the queue included).",
      cli: 'celery -A <app> purge -Q {queue} -f',
      what: 'every ready message (ETAs included)',
      counts: ['ready'],
      stays: 'Unacknowledged messages (running, or held by a worker until their ETA) stay, and so do results and failures.',
    },
    replayEdited: {
      does: "The failure's task is published again under the same id (Celery keeps a task's id across retries) as app.send_task would publish it: its stored name, with your edited args, kwargs, queue or priority and the rest as result_extended recorded them; the FAILURE record is removed only after RabbitMQ confirms the message. RabbitMQ can't tell whether the id is still queued, so replay a failure once.",
      sameId: true,
      kinds: CELERY_EDIT_KINDS,
    },
    enqueue: {
      ...CELERY_ENQUEUE,
      does: 'Publishes the message `app.send_task` would publish for the same arguments (protocol 2 headers as AMQP headers, JSON body), with publisher confirms.',
    },
  },
  calls: CELERY_RABBITMQ_CALLS,
};

/** Celery's brokers hold no paused state: every Celery adapter's `pause` capability is off with this. */
/** Why Celery has no Workflows view: a canvas is messages linked by ids, with no stored run. */
export const CELERY_NO_WORKFLOWS =
  'Celery keeps no workflow runs: a chain, group or chord is messages linked by their ids (root_id, parent_id, group) and chord counters, not a stored DAG with step states';

/** Why Celery's task lists have no time range: nothing in a task message says when it was sent. */
export const CELERY_NO_TASK_RANGE = {
  on: false,
  why: "Celery's task messages carry no enqueue time (only an optional eta), so its lists cannot be filtered by when a task was enqueued",
} as const;

export const CELERY_NO_PAUSE = {
  on: false,
  why: 'Celery has no queue pause in its broker: workers stop taking a queue with `celery control cancel_consumer <queue>` (and `add_consumer` to resume), which the console does not send',
} as const;
