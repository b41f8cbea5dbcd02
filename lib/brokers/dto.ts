// Output DTOs: what adapters return and the API and the UI read, JSON-safe (ids and big
// numbers as strings, timestamps as ISO strings). One zod definition per shape, the type
// inferred from it; the OpenAPI description converts the same definitions (docs/architecture.md,
// "One definition per response"). Client-safe: no server imports. Re-exported by schema.ts,
// which keeps the zod input schemas.
import { z } from 'zod';
import { ZBrokerModel, ZCapabilities } from './model';
import { ZWorkflowHealth } from './workflow-schema';

export * from './model';
export * from './message-view';
export * from './typed-value';
export * from './diagnosis';
export * from './dto-tasks';
export * from './dto-actions';
export * from './dto-fate';

const iso = z.string().describe('ISO 8601 time');
const isoOrNull = iso.nullable();
const count = z.number().int().min(0).nullable().describe('null when the broker cannot give it (shown as —)');

/** A count for a declared state key, or `dead` for the dead letters; null when unknown (a key
 *  the adapter did not fill included). */
export function countOf(q: Counted, key: string): number | null {
  return key === DEAD ? q.dead : (q.counts[key] ?? null);
}

/** The key of the dead letters: a tab of their own, never a declared state (`StateDecl.key`). */
export const DEAD = 'dead';

/** What is counted per queue and in a broker's totals: one count per declared state, keyed by
 *  the state's key (`model.states`), and the dead letters. */
const counted = {
  /** One entry per declared state; null when the system cannot count it. */
  counts: z
    .record(z.string(), count)
    .describe("one count per state the broker's adapter declares (`model.states[].key`), null when it cannot give it"),
  dead: count,
};
export const ZCounted = z.strictObject(counted).meta({ id: 'Counted' });
export type Counted = z.infer<typeof ZCounted>;

/** A count the adapter did not finish (it stopped at a cap): the matching count field then
 *  holds `atLeast`, a lower bound (0 included: "at least 0" is not "none"); `estimate` is the
 *  store's estimate (null when unknown); `why` says why the count stopped, in the operator's
 *  words. Shown as "10,000+ (≈ 1.2M)" with `why` as its title; exported with a capped marker. */
export const ZCappedCount = z
  .strictObject({ atLeast: z.number().int().min(0), estimate: z.number().nullable(), why: z.string().optional() })
  .meta({ id: 'CappedCount', description: 'A count the console stopped at a cap: a lower bound, the estimate, and why.' });
export type CappedCount = z.infer<typeof ZCappedCount>;
/** Counts that hit the cap, keyed like `counts` (and `dead`). */
const ZCappedCounts = z.partialRecord(z.string(), ZCappedCount);

export const ZHeadBlock = z
  .strictObject({
    id: z.string(),
    /** The task its message names; null when it names none the console can read. */
    task: z.string().nullable(),
    /** What kind of message it is (a code of the system's codec, e.g. `celery-v2`). */
    foreign: z.string(),
    /** The system that cannot decode it ("potatoq"), and its own words why. */
    system: z.string(),
    reason: z.string(),
  })
  .meta({ id: 'HeadBlock' });
export type HeadBlock = z.infer<typeof ZHeadBlock>;

export const ZQueueStats = z
  .strictObject({
    name: z.string(),
    ...counted,
    /** ISO time the oldest task in the state that plays `waiting` (`stateOfRole`: due work a
     *  worker takes next) was enqueued; null if none waits or the broker cannot tell
     *  (`unknownWhy.oldest` says which). */
    oldestWaitingAt: isoOrNull.describe(
      'when the oldest task of the state that plays `waiting` was enqueued; null if none waits or unknown (`unknownWhy.oldest`)',
    ),
    tasks: z.array(z.string()).nullable(),
    /** The system holds this queue's work back from its workers (QueueFlow's pause); absent
     *  where the system has no pause. */
    paused: z.boolean().optional(),
    /** Consumers attached to the queue (RabbitMQ; absent where the broker has no such notion). */
    consumers: z.number().int().nullable().optional(),
    /** Counts that hit the cap, keyed like `counts` (and `dead`); absent when every count is exact. */
    capped: ZCappedCounts.optional(),
    /**
     * The next ready task (what a worker claims first) when potatoq cannot decode it: every
     * worker that claims it crashes, so the queue is stuck until it is removed. Null when the
     * head is fine or was not checked (too big, or the broker cannot peek).
     */
    blockedBy: ZHeadBlock.nullable().optional(),
  })
  .meta({ id: 'QueueStats' });
export type QueueStats = z.infer<typeof ZQueueStats>;

export const ZWorkerInfo = z
  .strictObject({
    id: z.string(),
    hostname: z.string().nullable(),
    pid: z.string().nullable(),
    queues: z.array(z.string()),
    concurrency: z.string().nullable(),
    threads: z.string().nullable(),
    running: z.array(z.string()),
    heartbeatAt: iso,
    /** Seconds since the last heartbeat at read time. */
    ageSeconds: z.number(),
    /** potatoq's own: stale once older than 3 × heartbeat interval (15 s). */
    status: z.enum(['alive', 'stale', 'dead']),
    registered: z.array(z.string()).nullable(),
  })
  .meta({ id: 'WorkerInfo' });
export type WorkerInfo = z.infer<typeof ZWorkerInfo>;

/** Which queues a paged overview holds: `matched` of `total` hold the search, from `offset`. */
export const ZQueuePage = z
  .strictObject({
    offset: z.number().int().min(0),
    limit: z.number().int().min(1),
    matched: z.number().int().min(0),
    total: z.number().int().min(0),
    search: z.string().optional(),
  })
  .meta({ id: 'QueuePage' });
export type QueuePage = z.infer<typeof ZQueuePage>;

export const ZBrokerOverview = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    kind: z.string().describe('the store it runs on (sqlite, postgres, rabbitmq, redis, ...)'),
    /** The adapter's declared model (added by the service). */
    model: ZBrokerModel.optional(),
    /** e.g. SQLite version, server version; never credentials. */
    serverInfo: z.string().nullable(),
    readOnly: z.boolean(),
    capabilities: ZCapabilities,
    queues: z.array(ZQueueStats),
    /** The queues' counts summed (`sumTotals`), keyed like theirs. */
    totals: ZCounted,
    /** Totals that are lower bounds because a count hit the cap. */
    totalsCapped: ZCappedCounts.optional(),
    /** Workers by heartbeat; null where the system keeps no worker registry (then
     *  `capabilities.workers.why` says so): never 0 for "not tracked". */
    workers: z
      .strictObject({ alive: z.number().int(), stale: z.number().int() })
      .nullable()
      .describe('null where the system keeps no worker registry (capabilities.workers.why says so)'),
    /** When the worker count was read, where it comes from an earlier read than the rest of the
     *  overview (a kept answer of the workers, so no overview waits for them); absent: read with it. */
    workersReadAt: iso.optional().describe('when the worker count was read, where it predates the rest of the overview'),
    /** What the operator should know about this broker's setup, in their words (a Redis that
     *  may evict tasks, ...); shown on its card. Absent when there is nothing to say. */
    warnings: z.array(z.string()).optional(),
    /** Why a column is unknown ("—") on every queue of this broker, in the operator's words. */
    unknownWhy: z
      .partialRecord(z.string(), z.string())
      .optional()
      .describe('why a column (a state key, `dead`, `oldest`) is unknown on every queue, in words'),
    /** Failed workflow runs and the newest with their cause, where capability `workflows` is on. */
    workflows: ZWorkflowHealth.optional(),
    readAt: iso,
    /** How long the broker took to answer this overview, in milliseconds (set by the service). */
    readMs: z.number().int().min(0).optional().describe('how long the broker took to answer this overview, in milliseconds'),
    /** Present when a page of the queues was asked for (lib/brokers/queue-page.ts): `queues` is that page. */
    queuePage: ZQueuePage.optional(),
  })
  .meta({ id: 'BrokerOverview' });
export type BrokerOverview = z.infer<typeof ZBrokerOverview>;
