import 'server-only';
import { z } from 'zod';

// What the API answers, as zod schemas for the OpenAPI description (lib/api/openapi.ts). The
// DTOs themselves are TypeScript interfaces (lib/brokers/dto.ts); these name their required
// fields and types and let further fields through (loose objects), so an adapter adding a field
// does not break clients validating against the description.

const iso = z.string().describe('ISO 8601 time');
const isoOrNull = iso.nullable();
const count = z.number().int().min(0).nullable().describe('null when the broker cannot give it (shown as —)');

export const ERROR_CODES = [
  'InvalidInput',
  'NotFound',
  'ReadOnly',
  'Unsupported',
  'Conflict',
  'BrokerUnavailable',
  'BrokerTimeout',
  'NotMigrated',
  'Forbidden',
  'Unauthorized',
  'Internal',
  'PayloadTooLarge',
  'TooManyAttempts',
  'Unavailable',
] as const;

export const ZErrorBody = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional().describe('field path -> message, for forms'),
    }),
  })
  .meta({
    id: 'Error',
    description: 'Every error of the JSON API: a code (its HTTP status is fixed per code) and a message that never holds credentials.',
  });

const ZOutcome = z
  .looseObject({
    id: z.string(),
    outcome: z.enum(['ok', 'missing', 'running', 'conflict', 'invalid', 'already', 'error']),
    message: z.string(),
    taskId: z
      .string()
      .optional()
      .describe(
        'The task this outcome is about when it is not `id` (a replay that made a new job); `already`: done before, nothing to retry.',
      ),
  })
  .meta({ id: 'ActionOutcome' });
const ZPreview = z.looseObject({ kind: z.string() }).meta({ id: 'PayloadPreview' });

export const ZBrokerList = z.object({
  brokers: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      kind: z.string(),
      system: z.string(),
      systemLabel: z.string(),
      storeLabel: z.string(),
    }),
  ),
});

const counts = z
  .record(z.string(), count)
  .describe("one count per state the broker's adapter declares (`model.states[].key`), null when it cannot give it");
const ZQueueStats = z.looseObject({ name: z.string(), counts, dead: count, oldestReadyAt: isoOrNull }).meta({ id: 'QueueStats' });
const ZEnqueueField = z
  .looseObject({
    key: z.string(),
    kind: z.enum(['text', 'integer', 'json-list', 'json-object', 'datetime', 'duration']),
    label: z.string(),
    help: z.string().optional(),
    required: z.boolean().optional(),
    default: z.string().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    typed: z.boolean().optional(),
    exclusive: z.string().optional(),
    schedules: z.boolean().optional(),
  })
  .meta({
    id: 'EnqueueField',
    description: "One input an enqueue request's `fields` may carry on this broker, as its adapter declares it.",
  });
const ZModel = z
  .looseObject({
    system: z.string(),
    states: z.array(z.looseObject({ key: z.string(), label: z.string() })),
    actions: z.looseObject({
      enqueue: z.looseObject({
        does: z.string(),
        defaultQueue: z.string(),
        fields: z.array(ZEnqueueField),
        typed: z.looseObject({ kinds: z.array(z.string()), template: z.string() }).optional(),
        routes: z.string().optional(),
      }),
    }),
  })
  .meta({ id: 'BrokerModel', description: "The adapter's declaration: its states, what each action does, the enqueue fields." });
export const ZOverview = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    kind: z.string(),
    readOnly: z.boolean(),
    capabilities: z
      .record(z.string(), z.looseObject({ on: z.boolean(), why: z.string().optional() }))
      .describe(
        'each fixed capability (`replay`, `browseDead`, ...) and `list:<state key>` per declared state: whether its tasks can be listed here',
      ),
    queues: z.array(ZQueueStats),
    totals: z.looseObject({ counts, dead: count }),
    workers: z
      .looseObject({ alive: z.number().int(), stale: z.number().int() })
      .nullable()
      .describe('null where the system keeps no worker registry (capabilities.workers.why says so)'),
    warnings: z.array(z.string()).optional(),
    readAt: iso,
    model: ZModel.optional(),
  })
  .meta({ id: 'BrokerOverview' });

const page = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    nextCursor: z.string().nullable(),
    searchedNewest: z.number().int().optional().describe('set when a text search only looked at the newest N rows'),
    window: z.string().optional().describe('set when the list covers only part of what it lists, in words: what was read and why'),
  });

const ZTaskSummary = z
  .looseObject({
    id: z.string(),
    queue: z.string(),
    task: z.string(),
    state: z.string(),
    priority: z.string(),
    runAt: isoOrNull,
    createdAt: isoOrNull,
    claimedAt: isoOrNull,
    times: z
      .record(z.string(), isoOrNull)
      .optional()
      .describe("the system's own times beyond createdAt/runAt/claimedAt, keyed as a state's `time.field` names them"),
    worker: z.string().nullable(),
    deliveries: z.string(),
    preview: ZPreview,
    seq: z.string(),
  })
  .meta({ id: 'TaskSummary' });
const ZDeadSummary = z
  .looseObject({
    id: z.string(),
    queue: z.string(),
    task: z.string(),
    summary: z.string(),
    diedAt: isoOrNull,
    preview: ZPreview,
    cause: z.string().nullable().optional().describe("The system's own code for why it died (QueueFlow: non_retryable, ...)."),
    replayed: z
      .object({ at: isoOrNull, taskId: z.string().nullable() })
      .nullable()
      .optional()
      .describe('Where a replayed letter stays (QueueFlow): when, and the task the replay made.'),
  })
  .meta({ id: 'DeadSummary' });
export const ZTaskPage = page(ZTaskSummary);
export const ZDeadPage = page(ZDeadSummary);
export const ZTaskDetail = ZTaskSummary.extend({
  payload: z.looseObject({}),
  raw: z.string(),
  rawSize: z.number().int(),
  rawTruncated: z.boolean(),
}).meta({ id: 'TaskDetail' });
export const ZDeadDetail = ZDeadSummary.extend({
  reason: z.string().nullable(),
  payload: z.looseObject({}),
  raw: z.string(),
  rawSize: z.number().int(),
  rawTruncated: z.boolean(),
}).meta({ id: 'DeadDetail' });
export const ZDeadGroups = z.object({
  groups: z.array(
    z.looseObject({
      fingerprint: z.string(),
      pattern: z.string(),
      excType: z.string().nullable(),
      frame: z.string().nullable(),
      example: z.object({ id: z.string(), summary: z.string() }),
      count: z.number().int(),
      tasks: z.array(z.string()),
      queues: z.array(z.string()),
      newestAt: isoOrNull,
      oldestAt: isoOrNull,
    }),
  ),
  scope: z
    .looseObject({
      grouped: z.number().int().min(0).describe("letters grouped: the sum of the groups' counts"),
      complete: z.boolean().describe('every dead letter (of the queue asked) is in a group'),
      note: z.string().optional().describe('set exactly when not complete: what was grouped and what was left out, in words'),
    })
    .meta({ id: 'DeadGroupScope' }),
});
export const ZResultPage = page(
  z.looseObject({ id: z.string(), status: z.string(), name: z.string().nullable(), dateDone: isoOrNull, expiresAt: isoOrNull }),
);
export const ZWorkers = z.object({
  workers: z.array(
    z.looseObject({
      id: z.string(),
      queues: z.array(z.string()),
      running: z.array(z.string()),
      heartbeatAt: iso,
      ageSeconds: z.number(),
      status: z.enum(['alive', 'stale', 'dead']),
    }),
  ),
});
export const ZTaskNames = z.object({ names: z.array(z.string()), seenIn: z.record(z.string(), z.array(z.string())).nullable() });
const ZStuckCheck = z.enum(['worker-lost', 'over-time-limit', 'no-consumer', 'overdue', 'poison']);
export const ZDiagnosis = z
  .looseObject({
    brokerId: z.string(),
    flags: z.array(
      z.looseObject({
        check: ZStuckCheck,
        queue: z.string().nullable(),
        ids: z.array(z.string()).describe('the first tasks concerned'),
        count: count,
        cause: z.string().describe('names the cause, in the system’s words'),
        can: z.string().describe('what the console can do about it'),
        cannot: z.string().describe('what it cannot (it never changes running tasks)'),
        link: z.looseObject({ page: z.enum(['task', 'queue', 'workers']) }),
        seconds: z.number().nullable(),
      }),
    ),
    unknown: z.array(z.object({ check: ZStuckCheck, why: z.string() })).describe('checks this broker cannot run, with why'),
    notes: z.array(z.object({ check: ZStuckCheck, text: z.string() })),
    overdueSeconds: z.number().int(),
    readAt: iso,
  })
  .meta({ id: 'Diagnosis' });

export const ZActionResult = z
  .looseObject({
    action: z.string(),
    brokerId: z.string(),
    requested: z.number().int(),
    succeeded: z.array(ZOutcome),
    failed: z.array(ZOutcome),
  })
  .meta({ id: 'ActionResult' });
export const ZMoveResult = ZActionResult.extend({ to: z.string() }).meta({ id: 'MoveResult' });
export const ZMoveTargets = z.array(
  z.looseObject({
    id: z.string(),
    name: z.string(),
    pairing: z.looseObject({ on: z.boolean(), does: z.string().optional(), why: z.string().optional() }),
  }),
);
export const ZPurgeResult = z.looseObject({ brokerId: z.string(), queue: z.string(), removed: z.number().int() });
export const ZQueuePauseResult = z
  .looseObject({
    brokerId: z.string(),
    queue: z.string(),
    paused: z.boolean(),
    pending: z.number().int().nullable(),
    running: z.number().int().nullable(),
  })
  .meta({ id: 'QueuePauseResult' });
export const ZEnqueueResult = z.looseObject({
  brokerId: z.string(),
  id: z.string(),
  queue: z.string(),
  task: z.string(),
  state: z.string(),
  payload: z.string(),
});
export const ZEnqueuePreview = ZEnqueueResult.extend({ preview: z.literal(true) });

export const ZBulkJob = z
  .looseObject({
    id: z.string(),
    brokerId: z.string(),
    action: z.enum(['replay', 'discard', 'revoke']),
    state: z.enum(['queued', 'running', 'paused', 'cancelled', 'done', 'failed']),
    snapshotAt: iso,
    capped: z.boolean(),
    rate: z.number().nullable(),
    progress: z.looseObject({
      total: z.number().int(),
      processed: z.number().int(),
      succeeded: z.number().int(),
      skipped: z.number().int(),
      failed: z.number().int(),
    }),
    error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
    stoppedAt: z.looseObject({ index: z.number().int(), id: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'BulkJob' });

export const ZAuditPage = z.object({
  entries: z.array(
    z.looseObject({
      id: z.string(),
      at: iso,
      finishedAt: isoOrNull,
      who: z.string(),
      action: z.string(),
      broker: z.string(),
      queue: z.string().nullable(),
      ids: z.array(z.string()),
      reason: z.string().nullable(),
      outcome: z.enum(['pending', 'done', 'partial', 'failed', 'refused']),
    }),
  ),
  nextCursor: z.string().nullable(),
});

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  brokers: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      kind: z.string(),
      ok: z.boolean(),
      error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
    }),
  ),
});
export const ZLive = z.object({ status: z.literal('live') });
export const ZReady = z.object({ status: z.literal('ready') });
export const ZSignedIn = z.object({ user: z.string() });

export const ZEditPreview = z
  .looseObject({
    brokerId: z.string(),
    id: z.string(),
    before: z.string().describe('what a plain replay writes'),
    after: z.string().describe('what this edit writes'),
    newId: z.string(),
    sameId: z.boolean().describe('the task keeps the letter’s id'),
    does: z.string(),
  })
  .meta({ id: 'EditPreview' });
export const ZEditReplay = ZEditPreview.extend({
  outcome: z.object({ id: z.string(), outcome: z.string(), message: z.string() }),
}).meta({ id: 'EditReplay' });
