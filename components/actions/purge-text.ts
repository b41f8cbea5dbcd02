// What a purge will remove, in the dialog's words: per broker kind (RabbitMQ's purge takes only
// ready messages) and with the counts the overview has right now.
import type { BrokerKind, QueueStats } from '@/lib/brokers/schema';
import { formatCount } from '@/lib/client/format';

export interface PurgeText {
  /** What goes, e.g. "every waiting task (ready and scheduled)". */
  what: string;
  /** How many right now, e.g. "12 ready and 3 scheduled right now"; null while unknown. */
  count: string | null;
  /** What stays. */
  stays: string;
}

export function purgeText(kind: BrokerKind | undefined, q: QueueStats | undefined): PurgeText {
  if (kind === 'rabbitmq') {
    return {
      what: 'every ready message',
      count: q && q.ready !== null ? `${formatCount(q.ready, q.capped?.ready)} ready right now` : null,
      stays: "Delayed tasks (in potatoq's delay queues), running (unacknowledged) tasks and dead letters stay. No results are written.",
    };
  }
  const known = q && q.ready !== null && q.scheduled !== null;
  return {
    what: 'every waiting task (ready and scheduled)',
    count: known ? `${formatCount(q.ready, q.capped?.ready)} ready and ${formatCount(q.scheduled, q.capped?.scheduled)} scheduled right now` : null,
    stays: 'Running tasks and dead letters stay. No results are written.',
  };
}
