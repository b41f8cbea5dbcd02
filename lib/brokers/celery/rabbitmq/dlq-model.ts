import 'server-only';
import type { BrokerModel } from '@/lib/brokers/schema';

// What replay and discard do on a Celery app on RabbitMQ with a `deadLetterQueue` (dlq-actions.ts).

const REPLAY =
  "A task whose message is in the dead-letter queue is replayed through that message: its FAILURE record, if any, is removed first, then the same message (same task id, headers and body; only RabbitMQ's x-death, x-first-death-* and x-last-death-* headers are dropped, so a new death starts a new x-death) is published with publisher confirms to the queue it was dead-lettered from (x-death), and taken from the dead-letter queue only once RabbitMQ confirmed it; if the publish fails the record is put back. A task whose result is no longer FAILURE (it ran again since) is refused, and a failure with no message there is sent again from its record, as app.send_task would (result_extended). Each task runs once more, never twice.";
const DISCARD =
  'A task whose message is in the dead-letter queue: the message is taken out of it and its FAILURE record, if any, is deleted. A failure with no message there: its FAILURE record is deleted.';

/** The RabbitMQ model with replay and discard as they act on `dlq` and the records. */
export function withDeadLetterQueue(model: BrokerModel, dlq: string): BrokerModel {
  const at = (s: string) => s.replace('the dead-letter queue', `the dead-letter queue (${dlq})`);
  return {
    ...model,
    actions: {
      ...model.actions,
      replay: { ...model.actions.replay, does: at(REPLAY) },
      discard: { ...model.actions.discard, does: at(DISCARD) },
    },
  };
}
