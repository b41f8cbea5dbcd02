import 'server-only';
import { celeryCounts, countIn, type CeleryCountKey } from '../counts';
import type { MgmtQueue } from '@/lib/transports/amqp/management';
import { noWorkflows, listing, type BrokerOverview, type Capabilities, type QueueStats } from '@/lib/brokers/schema';
import { capabilitiesOf, off, on } from '@/lib/brokers/kit/capabilities';
import { CELERY_NO_PAUSE, CELERY_NO_TASK_RANGE, CELERY_NO_WORKFLOWS, CELERY_RABBITMQ_MODEL } from '../model';
import { NO_BACKEND } from '../redis/context';
import { keptPings } from '../pings';
import { DEAD_COUNT_CAPPED_WHY, deadCounts } from '../redis/reads-dead';
import { checkQueues, inspect } from './amqp';
import { INSPECT_REFUSED, accessRefused } from './access';
import { CELERY_V3_DLQ_REFUSAL } from './dlq';
import { celeryWorkQueues } from './queues';
import type { CeleryRabbitCtx } from './context';

/** AMQP hands a queued message only to a consumer that takes it: none is read by id. */
export const RABBITMQ_FAMILY_WHY =
  'RabbitMQ lets a queued message be read only by taking it off its queue, so waiting members are not read: the family is what the result backend stores (finished and failed tasks, their children, chord counters)';

export const NO_BROWSE =
  "RabbitMQ can't show queued messages without taking them from the workers (no browse; a get-and-requeue reorders and redelivers them): counts only";
const NO_SCHEDULED =
  "RabbitMQ: a Celery ETA message waits in its queue among the ready ones until a worker reserves it (then it is unacknowledged); the broker can't tell them apart without taking them";
const NO_OLDEST = 'RabbitMQ does not say when its oldest ready message was enqueued without taking it';

/** A Celery-on-RabbitMQ adapter's capabilities and overview (counts, workers, dead letters). */
export function celeryRabbitOverview(ctx: CeleryRabbitCtx) {
  const { config, o, target, mgmt, link, backend, rctx, inspectMs, dlq } = ctx;

  async function capabilities(): Promise<Capabilities> {
    const server = await link.serverInfo();
    return capabilitiesOf(
      CELERY_RABBITMQ_MODEL.states,
      { pause: CELERY_NO_PAUSE, taskRange: CELERY_NO_TASK_RANGE },
      noWorkflows(CELERY_NO_WORKFLOWS),
      // Celery on RabbitMQ declares no scheduled state (its ETAs wait among the ready ones).
      listing(CELERY_RABBITMQ_MODEL.states, { on: false, why: NO_BROWSE }),
      !backend && off(['browseDead', 'deadRange', 'replay', 'discard', 'results', 'resultRange', 'fate'], NO_BACKEND),
      !backend && off(['family'], `${RABBITMQ_FAMILY_WHY}, and ${NO_BACKEND}`),
      // The DLQ's letters are shown, replayed and discarded without a result backend too (they
      // are messages, not records).
      dlq && (server.major < 4 ? off(['browseDead'], CELERY_V3_DLQ_REFUSAL) : on(['browseDead', 'replay', 'discard'])),
    );
  }

  /** The app's work queues (queues.ts has the rule), with what was read to find them. */
  async function queueNames(): Promise<{
    names: string[];
    stats: MgmtQueue[] | null;
    dead: Awaited<ReturnType<typeof deadCounts>> | null;
  }> {
    const [stats, bindings, dead] = await Promise.all([
      mgmt ? mgmt.queues(target.vhost) : Promise.resolve(null),
      mgmt && !o.queues?.length ? mgmt.queueBindings(target.vhost) : Promise.resolve([]),
      backend ? deadCounts(rctx) : Promise.resolve(null),
    ]);
    if (o.queues?.length) return { names: [...new Set(o.queues)].sort(), stats, dead };
    if (!stats) return { names: ['celery'], stats, dead };
    const seen = dead ? [...dead.byQueue.keys()].filter(Boolean) : [];
    return {
      names: celeryWorkQueues(
        stats.map((q) => q.name),
        bindings,
        seen,
        o.deadLetterQueue,
      ),
      stats,
      dead,
    };
  }

  // The workers answer a broadcast ping within its window (500 ms): kept between overviews.
  const workersSeen = keptPings(() =>
    // A login that may not bind the reply queue (no write permission) still sees the queues.
    inspect(link, 'ping', Math.min(500, inspectMs)).catch((e: unknown) => {
      if (accessRefused(e)) return null;
      throw e;
    }),
  );

  async function overview(): Promise<BrokerOverview> {
    const caps = await capabilities();
    const server = await link.serverInfo();
    const { names, stats, dead } = await queueNames();
    const [passive, seen, letters] = await Promise.all([
      checkQueues(link, names),
      workersSeen(),
      dlq ? link.checkQueue(dlq.name) : Promise.resolve(null),
    ]);
    const pings = seen.value;
    // The DLQ's messages count as dead in the totals (which queue each came from needs a browse).
    // A task rejected into the DLQ after failing has a FAILURE record too, and how many are in
    // both takes a browse: with both sources non-empty the total is a lower bound, the larger.
    const held = letters?.messages ?? 0;
    const overlap = dead !== null && dead.total > 0 && held > 0;
    const deadTotal = dead ? (overlap ? Math.max(dead.total, held) : dead.total + held) : null;
    const byName = new Map((stats ?? []).map((q) => [q.name, q]));
    // A queue that refused the passive declare (locked by another connection) is not shown.
    const queues: QueueStats[] = names
      .filter((name) => passive.has(name))
      .map((name) => ({
        name,
        counts: celeryCounts(passive.get(name)?.messages ?? 0, null, stats ? (byName.get(name)?.unacked ?? 0) : null),
        dead: dead ? (dead.byQueue.get(name) ?? 0) : null,
        oldestWaitingAt: null,
        tasks: null,
        consumers: passive.get(name)?.consumers ?? null,
        ...(dead?.capped ? { capped: { dead: { atLeast: dead.byQueue.get(name) ?? 0, estimate: null, why: DEAD_COUNT_CAPPED_WHY } } } : {}),
      }));
    const sum = (k: CeleryCountKey) =>
      queues.some((q) => countIn(q, k) === null) ? null : queues.reduce((n, q) => n + (countIn(q, k) ?? 0), 0);
    return {
      id: config.id,
      name: config.name,
      kind: 'rabbitmq',
      serverInfo: `${server.product} ${server.version} at ${target.display}${backend ? '; results in Redis' : '; no result backend'}`,
      readOnly: false,
      capabilities: caps,
      queues,
      totals: { counts: celeryCounts(sum('ready'), null, sum('running')), dead: deadTotal },
      ...((overlap || dead?.capped) && deadTotal !== null
        ? { totalsCapped: { dead: { atLeast: deadTotal, estimate: null, ...(dead?.capped ? { why: DEAD_COUNT_CAPPED_WHY } : {}) } } }
        : {}),
      workers: pings ? { alive: pings.size, stale: 0 } : null,
      ...(pings ? { workersReadAt: new Date(seen.at).toISOString() } : {}),
      unknownWhy: {
        scheduled: NO_SCHEDULED,
        oldest: NO_OLDEST,
        ...(pings ? {} : { workers: INSPECT_REFUSED }),
        ...(mgmt ? {} : { running: 'no management API is configured (managementUrl): unacknowledged counts are unknown' }),
        ...(backend ? {} : { dead: NO_BACKEND }),
      },
      readAt: new Date().toISOString(),
    };
  }

  return { capabilities, overview };
}
