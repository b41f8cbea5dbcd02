import 'server-only';
import { z } from 'zod';
import {
  ZActionResult,
  ZBrokerOverview,
  ZDeadSummary,
  ZHealthEntry,
  ZPage,
  ZResultSummary,
  ZTaskSummary,
  ZWorkerInfo,
} from '@/lib/brokers/dto';

// What the API answers, for the OpenAPI description (lib/api/openapi.ts). The DTOs are not
// copied here: each is one zod definition next to its type (lib/brokers/dto*.ts, message-view,
// diagnosis, model, schema-edit, lib/trends/schema.ts), re-exported below; this file adds only
// the envelopes the routes wrap them in and the answers of the console's own services. The
// definitions are exact; the description lets further fields through (openapi.ts, `collect`),
// so a field added later does not break clients validating against it (docs/api.md).
export { ZActionResult, ZDeadDetail, ZDeadGroups, ZEnqueuePreview, ZEnqueueResult, ZTaskDetail } from '@/lib/brokers/dto';
export { ZDiagnosis, ZPurgeResult, ZQueuePauseResult } from '@/lib/brokers/dto';
export { ZEditPreview, ZEditReplayResult as ZEditReplay } from '@/lib/brokers/schema-edit';

const iso = z.string().describe('ISO 8601 time');
const isoOrNull = iso.nullable();

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

// The routes' envelopes around the DTOs.
export const ZOverview = ZBrokerOverview;
export const ZTaskPage = ZPage(ZTaskSummary);
export const ZDeadPage = ZPage(ZDeadSummary);
export const ZResultPage = ZPage(ZResultSummary);
export const ZWorkers = z.object({ workers: z.array(ZWorkerInfo) });
export const ZTaskNames = z.object({ names: z.array(z.string()), seenIn: z.record(z.string(), z.array(z.string())).nullable() });
// The console's own answers (moves, bulk jobs, the audit trail), still written here: their
// types live with their services (lib/brokers/move.ts, lib/bulk/schema.ts, lib/audit/types.ts)
// and responses.test.ts holds these to them at type-check time.
export const ZMoveResult = ZActionResult.extend({ to: z.string() }).meta({ id: 'MoveResult' });
export const ZMoveTargets = z.array(
  z.looseObject({
    id: z.string(),
    name: z.string(),
    pairing: z.looseObject({ on: z.boolean(), does: z.string().optional(), why: z.string().optional() }),
  }),
);
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
  brokers: z.array(ZHealthEntry),
});
export const ZLive = z.object({ status: z.literal('live') });
export const ZSignedIn = z.object({ user: z.string() });
