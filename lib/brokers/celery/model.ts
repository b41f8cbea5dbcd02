import 'server-only';
import type { BrokerModel, StateDecl } from '@/lib/brokers/schema';

/** Celery's waiting and reserved messages, as the console names them (keys shared with the
 *  contract's vocabulary: a Celery "reserved" message is held by a worker, like potatoq's running). */
export const CELERY_STATES = ['ready', 'scheduled', 'running'] as const;
export type CeleryState = (typeof CELERY_STATES)[number];

const STATES: StateDecl[] = [
  { key: 'ready', label: 'Waiting', list: 'listReady', time: { field: 'runAt', label: 'ETA' }, owned: false },
  { key: 'scheduled', label: 'Waiting (future ETA)', list: 'listScheduled', time: { field: 'runAt', label: 'ETA' }, owned: false },
  { key: 'running', label: 'Reserved by a worker', list: 'listRunning', time: { field: 'claimedAt', label: 'Reserved' }, owned: true },
];

/** Celery on Redis: kombu's lists per queue and priority bucket, failures in the result backend. */
export const CELERY_REDIS_MODEL: BrokerModel = {
  system: 'celery',
  states: STATES,
  actions: {
    replay: {
      does: "Each failure's task is sent again to the queue it ran from, with the same id, name, args and kwargs (stored by result_extended), as a message app.send_task would write; the FAILURE record is removed, and the new run writes its own result.",
      bulkRate: 50,
    },
    discard: { does: 'The FAILURE records are deleted from the result backend. No message is touched.' },
    revoke: {
      does: 'Each waiting message is removed from its Redis list (atomically, so no worker gets it) and gets a REVOKED result; then a revoke is broadcast to live workers as `celery control revoke` does. Messages a worker already reserved are refused and left alone.',
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
    enqueue: { does: 'Writes the message `app.send_task` would write for the same arguments (protocol 2, headers included).' },
  },
};
