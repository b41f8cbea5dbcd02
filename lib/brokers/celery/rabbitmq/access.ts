import 'server-only';
import type { AccessCheck } from '@/lib/brokers/types';
import type { AmqpLink } from '@/lib/transports/amqp/connection';
import type { Management } from '@/lib/transports/amqp/management';
import { amqpAccessChecks, managementChecks, type AmqpNeeds } from '@/lib/transports/amqp/access';

/** RabbitMQ refused an operation for a missing permission (403 ACCESS_REFUSED). */
export const accessRefused = (e: unknown): boolean =>
  (e as { code?: unknown })?.code === 403 || /ACCESS.REFUSED/.test(e instanceof Error ? e.message : String(e));

export const INSPECT_REFUSED =
  "this login may not bind the reply queue of Celery's worker inspect (AMQP write permission): workers are unknown";

/** What the console does with each AMQP permission on a Celery app's vhost. */
const NEEDS: AmqpNeeds = {
  configure: {
    for: "declare the reply queue of a worker inspect, Celery's broadcast exchange and the dead-letter browse lock",
    off: ['workers', 'revoke', 'browseDead', 'replay', 'discard'],
  },
  read: { for: 'read inspect replies and dead letters, or purge a queue', off: ['workers', 'browseDead', 'replay', 'discard', 'purge'] },
  write: {
    for: 'publish tasks, replays and broadcast commands, or bind the reply queue of a worker inspect',
    off: ['enqueue', 'replay', 'revoke', 'workers'],
  },
};

/** The doctor's checks of the AMQP login's permissions and the management API. */
export async function checkCeleryRabbitAccess(link: AmqpLink, vhost: string, mgmt: Management | null): Promise<AccessCheck[]> {
  return [
    ...(await amqpAccessChecks(link, vhost, NEEDS)),
    ...(await managementChecks(
      mgmt,
      'queues are found only by name (the queues option, else "celery") and consumer counts come from AMQP',
    )),
  ];
}
