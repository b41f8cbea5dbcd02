import 'server-only';
import type { AccessCheck } from '@/lib/brokers/types';
import { amqpAccessChecks, managementChecks, type AmqpNeeds } from '@/lib/transports/amqp/access';
import type { RabbitCtx } from './context';

/** What the console does with each AMQP permission on potatoq's queues. */
const NEEDS: AmqpNeeds = {
  configure: {
    for: 'declare the lock queue that keeps two consoles from browsing one dead-letter queue at once',
    off: ['browseDead', 'replay', 'discard'],
  },
  read: { for: 'read dead letters or purge a queue', off: ['browseDead', 'replay', 'discard', 'purge'] },
  write: { for: 'publish replayed and enqueued tasks', off: ['replay', 'enqueue'] },
};

/** The doctor's checks of the AMQP login's permissions and the management API. */
export async function checkRabbitAccess(ctx: RabbitCtx): Promise<AccessCheck[]> {
  return [
    ...(await amqpAccessChecks(ctx.link, ctx.target.vhost, NEEDS)),
    ...(await managementChecks(ctx.mgmt, 'running counts are unknown and only the configured queues are listed')),
  ];
}
