import 'server-only';
import type { BrokerOverview, Diagnosis } from '@/lib/brokers/schema';
import { diagnoseCelery } from '../diagnose-run';
import { liveWorkers, type Inspect } from '../workers';

const NO_HELD =
  'RabbitMQ does not show which messages a consumer holds without taking them from the workers; it puts back the messages of a consumer whose connection closes by itself';
const NO_MGMT =
  'no management API is configured (managementUrl): RabbitMQ\u2019s unacknowledged counts are unknown, so messages held by a consumer that no longer answers cannot be told apart';
const NO_LATE =
  'an ETA message that no worker has reserved waits in its RabbitMQ queue among the ready ones and cannot be read without taking it (a queue with waiting messages and no consumer is flagged as such)';

/** Stuck work on Celery's RabbitMQ broker: queue and consumer counts (passive declares, the
 *  management API's unacknowledged counts) against what the live workers answer. */
export async function diagnoseRabbit(
  brokerId: string,
  overview: () => Promise<BrokerOverview>,
  inspect: Inspect,
  inspectMs: number,
  q: { overdueSeconds: number; revoke: { on: boolean; why?: string } },
): Promise<Diagnosis> {
  const [o, live] = await Promise.all([overview(), liveWorkers(inspect)]);
  const unacked = o.queues.some((x) => (x.counts.running ?? null) === null)
    ? { why: NO_MGMT }
    : { value: new Map(o.queues.map((x) => [x.name, x.counts.running ?? 0])) };
  return diagnoseCelery({
    brokerId,
    queues: o.queues,
    live,
    held: { why: NO_HELD },
    unacked,
    visibilityTimeout: null,
    late: { why: NO_LATE },
    overdueSeconds: q.overdueSeconds,
    inspectMs,
    revoke: q.revoke,
    nowMs: Date.now(),
  });
}
