import { isControlQueue } from '../redis/keys';

// Which queues of a RabbitMQ vhost are a Celery app's work queues. A vhost is often shared with
// other apps (potatoq's queues, DLQs and 28 delay queues; a console's browse locks): counting
// every queue in it summed theirs into Celery's totals and advised `celery … -Q` for them.

/** Why a queue is never a Celery work queue, whoever declared it; null when it may be one. */
export function neverCeleryWork(name: string, deadLetterQueue?: string): string | null {
  if (name.startsWith('amq.')) return "the broker's own";
  if (isControlQueue(name)) return "Celery's control and event queues (pidbox, reply, celeryev)";
  if (name.startsWith('celery_delayed_')) return "Celery's native delayed-delivery queues";
  if (name === deadLetterQueue) return 'the dead-letter queue (its messages are listed as dead letters)';
  if (name.endsWith('.dlq') || name.startsWith('potatoq.') || name.startsWith('potatoq-console.'))
    return "potatoq's queues on a shared vhost (DLQs, delay queues, the console's browse locks)";
  return null;
}

export interface Binding {
  exchange: string;
  routingKey: string;
  queue: string;
}

/**
 * The Celery app's work queues among the vhost's `queues`: those kombu declared (bound to a
 * direct exchange of their own name under their own name, as a worker's `-Q` and `send_task` do,
 * or bound to the `celery` exchange), the default `celery` queue, and the queues Celery's own
 * records name (`seen`: failures' delivery queues); minus what is never a work queue
 * (neverCeleryWork). A queue declared another way (a `task_queues` entry with its own exchange)
 * is shown by naming it in the `queues` option.
 */
export function celeryWorkQueues(queues: string[], bindings: Binding[], seen: Iterable<string>, deadLetterQueue?: string): string[] {
  const kombu = new Set<string>(['celery', ...seen]);
  for (const b of bindings) if (b.exchange === 'celery' || (b.exchange === b.queue && b.routingKey === b.queue)) kombu.add(b.queue);
  return [...new Set(queues)].filter((q) => kombu.has(q) && neverCeleryWork(q, deadLetterQueue) === null).sort();
}
