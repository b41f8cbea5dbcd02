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
import { ZMoveTargetView } from '@/lib/brokers/move-pairing';
import { ZBrokerEntry } from '@/lib/brokers/naming';
import { ZBulkJobView } from '@/lib/bulk/schema';
import { ZSchedule, ZScheduleList, ZScheduleOutcome, ZSchedulePreview } from '@/lib/brokers/schedule';
import { ZWorkflowDetail, ZWorkflowRetryResult, ZWorkflowRunPage } from '@/lib/brokers/workflow-schema';
import { ZTaskFamily } from '@/lib/brokers/family/schema';

// What the API answers, for the OpenAPI description (lib/api/openapi.ts). The DTOs are not
// copied here: each is one zod definition next to its type (lib/brokers/dto*.ts, message-view,
// diagnosis, model, schema-edit, naming, move-pairing, lib/bulk/schema.ts, lib/audit/types.ts,
// lib/trends/schema.ts), re-exported below; this file adds only
// the envelopes the routes wrap them in (and the two answers typed in server-only modules). The
// definitions are exact; the description lets further fields through (openapi.ts, `collect`),
// so a field added later does not break clients validating against it (docs/api.md).
export { ZActionResult, ZDeadDetail, ZDeadGroups, ZEnqueuePreview, ZEnqueueResult, ZTaskDetail } from '@/lib/brokers/dto';
export { ZDiagnosis, ZPurgeResult, ZQueuePauseResult } from '@/lib/brokers/dto';
export { ZEditPreview, ZEditReplayResult as ZEditReplay } from '@/lib/brokers/schema-edit';

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

export const ZBrokerList = z.object({ brokers: z.array(ZBrokerEntry) });

// The routes' envelopes around the DTOs.
export const ZOverview = ZBrokerOverview;
export const ZTaskPage = ZPage(ZTaskSummary);
export const ZDeadPage = ZPage(ZDeadSummary);
export const ZResultPage = ZPage(ZResultSummary);
export const ZWorkers = z.object({ workers: z.array(ZWorkerInfo) });
// A move's result is an action's with its target (lib/brokers/move.ts, server-only, types it
// as `ActionResult & { to }`); task names are `TaskSightings` (lib/brokers/enqueue-names.ts,
// server-only): both are held to their types by responses.test.ts.
/** A task's family (lib/brokers/family/schema.ts is the one definition). */
export const ZTaskFamilyResponse = ZTaskFamily.meta({ id: 'TaskFamily' });
export const ZTaskNames = z.object({ names: z.array(z.string()), seenIn: z.record(z.string(), z.array(z.string())).nullable() });
export const ZMoveResult = ZActionResult.extend({ to: z.string() }).meta({ id: 'MoveResult' });
export const ZMoveTargets = z.array(ZMoveTargetView);
export const ZBulkJob = ZBulkJobView;
export { ZAuditPage } from '@/lib/audit/types';

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  brokers: z.array(ZHealthEntry),
});
export const ZLive = z.object({ status: z.literal('live') });
export const ZReady = z.object({ status: z.literal('ready') });
export const ZSignedIn = z.object({ user: z.string() });

// Schedules (lib/brokers/schedule.ts): the DTOs are zod schemas already; registered here by id.
export const ZScheduleListBody = ZScheduleList.meta({
  id: 'ScheduleList',
  description: "A broker's schedules with their last firing and problems",
});
export const ZScheduleBody = ZSchedule.meta({ id: 'Schedule' });
export const ZSchedulePreviewBody = ZSchedulePreview.meta({
  id: 'SchedulePreview',
  description: 'The exact calls a create or edit makes, in order; nothing sent',
});
export const ZScheduleResultBody = ZScheduleOutcome.extend({
  requested: z.literal(1),
  succeeded: z.array(ZScheduleOutcome),
  failed: z.array(z.never()),
}).meta({
  id: 'ScheduleResult',
  description: "One schedule action's outcome (`jobId`: the job a run-now made)",
});

// The Workflows view (lib/brokers/workflow-schema.ts: the DTOs are zod schemas themselves).
export const ZWorkflowRunPageResponse = ZWorkflowRunPage.meta({ id: 'WorkflowRunPage' });
export const ZWorkflowDetailResponse = ZWorkflowDetail.meta({ id: 'WorkflowDetail' });
export const ZWorkflowRetryResponse = ZWorkflowRetryResult.meta({ id: 'WorkflowRetryResult' });
