import 'server-only';
import { z } from 'zod';
import { ZReason } from '@/lib/actions/gate';
import { ZIds, ZPurgeRequest } from '@/lib/actions/schemas';
import { ZReveal } from '@/lib/actions/reveal';
import { ZDeadExportQuery } from '@/lib/actions/export';
import { ZAuditQuery } from '@/lib/audit/types';
import type { AuthMode } from '@/lib/auth/config';
import { ZLogin } from '@/lib/auth/login';
import { SESSION_COOKIE } from '@/lib/auth/session';
import { ZDeadGroupsQuery, ZDeadListQuery, ZDiagnosisQuery, ZEnqueueRequest, ZResultListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import { ZQueuePageQuery } from '@/lib/brokers/queue-page';
import { ZBulkControl, ZBulkCreate, ZBulkOp, ZJobId } from '@/lib/bulk/schema';
import { ZDeadTrend, ZDeadTrendQuery, ZQueueTrend, ZQueueTrendQuery } from '@/lib/trends/schema';
import * as R from './responses';
import { CAMPAIGN_ROUTES } from './openapi-campaigns';
import { mappingRoutes } from './openapi-mappings';
import { alertRoutes } from './openapi-alerts';
import { viewExportRoutes } from './openapi-views';
import { ZReplayEdit } from '@/lib/brokers/schema-edit';
import {
  SCHEDULE_ACTIONS,
  ZScheduleActionRequest,
  ZScheduleCreateRequest,
  ZScheduleEditRequest,
  ZScheduleId,
} from '@/lib/brokers/schedule';
import { ZWorkflowId, ZWorkflowListQuery } from '@/lib/brokers/workflow-schema';
import { ZFamilyQuery } from '@/lib/brokers/family/schema';

// The OpenAPI 3.1 description of the console's HTTP API, served at /api/openapi.json. Request
// parameters and bodies are the zod schemas the routes validate with (converted by zod's own
// z.toJSONSchema, JSON Schema 2020-12 as OpenAPI 3.1 uses); responses are the DTOs' own zod
// definitions (lib/brokers/dto*.ts, ...), in the envelopes of lib/api/responses.ts.
// Every route file under app/api is here (lib/api/openapi.test.ts checks).

export type { Access, Method, Route } from './openapi-route';
import type { Route } from './openapi-route';

const ids = ZIds.extend({
  reason: ZReason.optional().describe('why; recorded in the audit trail'),
  queue: z.string().max(500).optional().describe('the queue the caller was looking at (kept in the audit entry as said)'),
});
/** Discard and revoke: the gate refuses them without a reason a reader can see. */
const idsWithReason = ids.extend({ reason: ZReason.min(1).describe('why (required); recorded in the audit trail') });
/** Reads of a broker: any of them can meet an adapter without what it needs (RabbitMQ lists no
 *  queued messages, 3.x browses no DLQ, no result backend, no worker registry, a refused Redis
 *  server) and answer 501 `Unsupported` with why (lib/api/openapi-unsupported.test.ts checks). */
const readerOfBroker = [400, 404, 501, 503, 504];
/** Reads of the console's own state store (bulk jobs): no adapter involved. */
const readerOfState = [400, 404, 503, 504];
const writer = [400, 403, 404, 409, 413, 501, 503, 504];
const redirect = { description: 'See Other: a redirect (Location) and, on success, the session cookie' };
const html = { description: 'A page saying why the sign-in failed (no session)', content: { 'text/html': { schema: { type: 'string' } } } };
const deadLiteral = (path: string, id: string): Route => ({
  method: 'get',
  path,
  tag: 'dead letters',
  access: 'reader',
  summary: `The dead letter whose id is literally \`${id}\``,
  ok: R.ZDeadDetail,
  errors: readerOfBroker,
});

export const ROUTES: Route[] = [
  ...CAMPAIGN_ROUTES,
  {
    method: 'get',
    path: '/api/health/live',
    tag: 'health',
    access: 'public',
    summary: 'Liveness: this process serves requests (no sign-in, no detail)',
    ok: R.ZLive,
  },
  {
    method: 'get',
    path: '/api/health/ready',
    tag: 'health',
    access: 'public',
    summary: "Readiness: this instance's state store answers (no sign-in, no detail); 503 while it does not",
    ok: R.ZReady,
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/health',
    tag: 'health',
    access: 'reader',
    summary: 'Every broker: reachable or why not (200 even when one is down)',
    ok: R.ZHealth,
  },
  { method: 'get', path: '/api/brokers', tag: 'brokers', access: 'reader', summary: 'The configured brokers', ok: R.ZBrokerList },
  {
    method: 'get',
    path: '/api/brokers/{broker}/queues',
    tag: 'brokers',
    access: 'reader',
    summary:
      'Overview: per-queue counts in the declared states, totals, workers, capabilities; with search/offset/limit, one page of the queues',
    query: ZQueuePageQuery,
    ok: R.ZOverview,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/tasks',
    tag: 'tasks',
    access: 'reader',
    summary: 'Tasks in one declared state, keyset-paginated',
    query: ZTaskListQuery,
    ok: R.ZTaskPage,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/tasks/{id}',
    tag: 'tasks',
    access: 'reader',
    summary: 'A waiting or running task',
    params: { id: z.string() },
    ok: R.ZTaskDetail,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/tasks/revoke',
    tag: 'tasks',
    access: 'operator',
    summary: 'Revoke waiting tasks by id (running ones are refused per id); `reason` required',
    body: idsWithReason,
    ok: R.ZActionResult,
    errors: writer,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/tasks/revoke',
    tag: 'tasks',
    access: 'reader',
    summary: 'The task whose id is literally `revoke`',
    ok: R.ZTaskDetail,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/tasks/move',
    tag: 'tasks',
    access: 'operator',
    summary:
      'Move waiting tasks to broker `to` of another call model through their call mappings (each taken from its queue atomically, then created there under an idempotency key); operator on both brokers, `reason` required',
    body: idsWithReason.extend({ to: z.string().min(1).describe('the broker the tasks go to') }),
    ok: R.ZMoveResult,
    errors: writer,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/tasks/move',
    tag: 'tasks',
    access: 'reader',
    summary: 'The task whose id is literally `move`',
    ok: R.ZTaskDetail,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/family/{id}',
    tag: 'tasks',
    access: 'reader',
    summary:
      "A task's family from any member: root, parent, children, group or chord with parts done/total, the work a failed member blocks",
    description:
      'Off (Unsupported, with why) where the system links no tasks this way; at most `limit` members, `capped` when the family has more; `unseen` lists what this broker does not let the console see.',
    params: { id: z.string() },
    query: ZFamilyQuery,
    ok: R.ZTaskFamilyResponse,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/family/{id}/delete',
    tag: 'tasks',
    access: 'operator',
    summary:
      "Delete a workflow with its whole subtree where the system offers it (Simple Durable Jobs' DeleteWorkflowSubtree); `confirm` repeats the id, `reason` required",
    description:
      "Under the system's own guard (`model.actions.deleteFamily.guard`): a refused workflow is one failed outcome with why, nothing deleted.",
    params: { id: z.string() },
    body: z.object({ confirm: z.string().describe("the workflow's id, typed again"), reason: ZReason.min(1).describe('why (required)') }),
    ok: R.ZActionResult,
    errors: writer,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/dead',
    tag: 'dead letters',
    access: 'reader',
    summary: 'Dead letters, newest first',
    query: ZDeadListQuery,
    ok: R.ZDeadPage,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/dead/groups',
    tag: 'dead letters',
    access: 'reader',
    summary: 'Dead letters grouped by the last line of their reason',
    query: ZDeadGroupsQuery,
    ok: R.ZDeadGroups,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/dead/export',
    tag: 'dead letters',
    access: 'reader',
    summary: 'The dead letters matching a filter as CSV or JSON lines: streamed, at most `max` rows, redacted like the list, audited',
    query: ZDeadExportQuery,
    other: {
      '200': {
        description: 'CSV (a header row, then one row per letter) or JSON lines; a last line says when the export stopped at `max`',
        content: { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
      },
    },
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/dead/{id}',
    tag: 'dead letters',
    access: 'reader',
    summary: 'One dead letter',
    params: { id: z.string() },
    ok: R.ZDeadDetail,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/dead/{id}/edit/preview',
    tag: 'dead letters',
    access: 'operator',
    summary: 'The message a replay of this letter with edited args, kwargs, queue or priority would write (nothing written)',
    description:
      'Values are typed (`{"t":"datetime","v":"2026-12-01T09:00:00+00:00"}`, `{"t":"decimal","v":"12.50"}`, uuid, bytes (base64), set, …), never raw tagged JSON; one the system would not receive as that type is refused naming the field.',
    params: { id: z.string() },
    body: ZReplayEdit,
    ok: R.ZEditPreview,
    errors: writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/dead/{id}/edit',
    tag: 'dead letters',
    access: 'operator',
    summary:
      'Replay one dead letter with edited args, kwargs, queue or priority; the audit entry records the edit and the message before and after',
    params: { id: z.string() },
    body: ZReplayEdit.extend({ reason: ZReason.min(1).describe('why (required); recorded in the audit trail') }),
    ok: R.ZEditReplay,
    errors: writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/dead/replay',
    tag: 'dead letters',
    access: 'operator',
    summary: 'Replay dead letters by id (outcome per id)',
    body: ids,
    ok: R.ZActionResult,
    errors: writer,
  },
  deadLiteral('/api/brokers/{broker}/dead/replay', 'replay'),
  {
    method: 'post',
    path: '/api/brokers/{broker}/dead/discard',
    tag: 'dead letters',
    access: 'operator',
    summary: 'Delete dead letters by id; `reason` required',
    body: idsWithReason,
    ok: R.ZActionResult,
    errors: writer,
  },
  deadLiteral('/api/brokers/{broker}/dead/discard', 'discard'),
  {
    method: 'post',
    path: '/api/brokers/{broker}/dead/convert',
    tag: 'dead letters',
    access: 'operator',
    summary: "Rebuild another system's letters as this broker's tasks and replay them, where its model declares `actions.convert`",
    body: ids,
    ok: R.ZActionResult,
    errors: writer,
  },
  deadLiteral('/api/brokers/{broker}/dead/convert', 'convert'),
  {
    method: 'post',
    path: '/api/brokers/{broker}/dead/convert-celery',
    tag: 'dead letters',
    access: 'operator',
    summary: 'The same as `POST /dead/convert` (its first path, kept for existing clients)',
    body: ids,
    ok: R.ZActionResult,
    errors: writer,
  },
  deadLiteral('/api/brokers/{broker}/dead/convert-celery', 'convert-celery'),
  {
    method: 'post',
    path: '/api/brokers/{broker}/dead/move',
    tag: 'dead letters',
    access: 'operator',
    summary:
      'Move dead letters to broker `to` of the same call model (enqueued there under their own ids, then removed here); operator on both brokers, `reason` required',
    body: idsWithReason.extend({ to: z.string().min(1).describe('the broker the letters go to') }),
    ok: R.ZMoveResult,
    errors: writer,
  },
  deadLiteral('/api/brokers/{broker}/dead/move', 'move'),
  {
    method: 'get',
    path: '/api/brokers/{broker}/move-targets',
    tag: 'dead letters',
    access: 'reader',
    summary: "Every other broker, with whether this broker's dead letters (from=waiting: waiting tasks) can move there and why not",
    query: z.object({ from: z.enum(['dead', 'waiting']).optional() }),
    ok: R.ZMoveTargets,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/queues/{queue}/purge',
    tag: 'queues',
    access: 'operator',
    summary: "Remove a queue's waiting tasks; `confirm` repeats the queue name, `reason` required",
    params: { queue: z.string() },
    body: z.object({ confirm: ZPurgeRequest.shape.confirm, reason: ZReason.min(1).describe('why (required)') }),
    ok: R.ZPurgeResult,
    errors: writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/queues/{queue}/pause',
    tag: 'queues',
    access: 'operator',
    summary: 'Pause (`paused: true`) or resume a queue, where its system can (capability `pause`)',
    params: { queue: z.string() },
    body: z.object({ paused: z.boolean(), reason: ZReason.optional() }),
    ok: R.ZQueuePauseResult,
    errors: writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/enqueue',
    tag: 'enqueue',
    access: 'operator',
    summary: 'Enqueue one task',
    body: ZEnqueueRequest,
    ok: R.ZEnqueueResult,
    errors: writer,
    description:
      "`fields` holds the values of the fields the broker's adapter declares (`model.actions.enqueue.fields` of GET /api/brokers/{broker}); JSON fields take JSON text (exact for big integers) or JSON values. An InvalidInput error's `fields` are keyed by field path (`kwargs.when`). The older flat body (`{task, queue, args, kwargs, ...}`) is still read as fields. Without `queue`, the task goes to the queue it was seen in (`seenIn` of task-names); a task or queue name never seen that is a misspelling of a seen one is refused (InvalidInput under `task`/`queue`, with the names meant) unless `allowUnknown` is true.",
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/enqueue/preview',
    tag: 'enqueue',
    access: 'operator',
    summary: 'The message an enqueue would write; writes nothing',
    body: ZEnqueueRequest,
    ok: R.ZEnqueuePreview,
    errors: writer,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/trends/dead',
    tag: 'trends',
    access: 'reader',
    summary: "Dead letters per time bucket, from the broker's own died times (per queue, per group)",
    query: ZDeadTrendQuery,
    ok: ZDeadTrend,
    errors: readerOfBroker,
    description: 'Answers are cached for 30 s. 501 (`Unsupported`, with why) where the broker cannot say when its letters died.',
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/trends/queues',
    tag: 'trends',
    access: 'reader',
    summary: "Queue depth, oldest-waiting age and dead count over time, from the console's own samples",
    query: ZQueueTrendQuery,
    ok: ZQueueTrend,
    errors: [400, 404, 503],
    description: 'Read from the state store, never from the broker: an unreachable broker leaves gaps (null), not an error.',
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/results',
    tag: 'results',
    access: 'reader',
    summary: 'Stored results',
    query: ZResultListQuery,
    ok: R.ZResultPage,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/diagnosis',
    tag: 'queues',
    access: 'reader',
    summary:
      'Stuck work named with its cause: lost workers, past time limits, queues nobody consumes, overdue scheduled tasks, poison heads',
    description:
      'Bounded reads only. Each flag says what the console can do about it and what it cannot (it never changes running tasks); a check the broker cannot run is listed in `unknown` with why, never reported as "nothing found".',
    query: ZDiagnosisQuery,
    ok: R.ZDiagnosis,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/workers',
    tag: 'workers',
    access: 'reader',
    summary: 'Workers and their heartbeats',
    ok: R.ZWorkers,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/schedules',
    tag: 'schedules',
    access: 'reader',
    summary:
      "The broker's schedules: expression in words and cron, time zone, next and last firing (its job), paused, missed or failing with the cause",
    description:
      'Only where the system declares schedules (capability `schedules`); otherwise 501 with why (Celery: beat keeps them in the app).',
    ok: R.ZScheduleListBody,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/schedules',
    tag: 'schedules',
    access: 'operator',
    summary: 'Create a schedule (capability `schedules:write`); bad input is 400 with the field (`cron`, `timeZone`, `fields.payload`)',
    body: ZScheduleCreateRequest,
    ok: R.ZScheduleResultBody,
    errors: writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/schedules/preview',
    tag: 'schedules',
    access: 'operator',
    summary: 'The exact calls a create (or, with `replaces`, an edit) would make; nothing is sent',
    body: ZScheduleCreateRequest.extend({ replaces: z.string().max(256).optional() }),
    ok: R.ZSchedulePreviewBody,
    errors: writer,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/schedules/preview',
    tag: 'schedules',
    access: 'reader',
    summary: 'The schedule whose id is literally `preview`',
    ok: R.ZScheduleBody,
    errors: readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/schedules/{id}',
    tag: 'schedules',
    access: 'reader',
    summary: 'One schedule',
    params: { id: ZScheduleId },
    ok: R.ZScheduleBody,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/schedules/{id}/{op}',
    tag: 'schedules',
    access: 'operator',
    summary:
      'Pause, resume, delete (reason required) or run now (`key`: its idempotency key) one schedule, `confirm` repeating its name; or edit it',
    description:
      '`edit` takes the create body with `confirm` and `reason`, and changes the schedule as the system can (QueueFlow: delete, then create).',
    params: { id: ZScheduleId, op: z.enum([...SCHEDULE_ACTIONS, 'edit']) },
    body: z.union([ZScheduleActionRequest.omit({ id: true }), ZScheduleEditRequest.omit({ id: true })]),
    ok: R.ZScheduleResultBody,
    errors: writer,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/task-names',
    tag: 'enqueue',
    access: 'reader',
    summary: 'Task names seen in the broker, and the queues each was seen in (`seenIn`, null where the system does not say)',
    ok: R.ZTaskNames,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/reveal',
    tag: 'tasks',
    access: 'operator',
    summary: "One task's or dead letter's unredacted arguments (audited)",
    body: ZReveal,
    ok: z.union([R.ZTaskDetail, R.ZDeadDetail]),
    errors: writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/bulk',
    tag: 'bulk',
    access: 'operator',
    summary: 'Capture every id matching a filter as a bulk job (queued until started)',
    body: ZBulkCreate,
    ok: R.ZBulkJob,
    errors: writer,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/bulk',
    tag: 'bulk',
    access: 'reader',
    summary: "This broker's bulk jobs, newest first",
    ok: z.array(R.ZBulkJob),
    errors: readerOfState,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/bulk/{jobId}',
    tag: 'bulk',
    access: 'reader',
    summary: 'A bulk job: progress and outcomes (`full=1`: all of them)',
    params: { jobId: ZJobId },
    query: z.object({ full: z.enum(['1']).optional() }),
    ok: R.ZBulkJob,
    errors: readerOfState,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/bulk/{jobId}/{op}',
    tag: 'bulk',
    access: 'operator',
    summary: 'Start (confirmCount and reason required), pause, resume, cancel or re-rate a bulk job',
    params: { jobId: ZJobId, op: ZBulkOp },
    body: ZBulkControl.omit({ jobId: true, op: true }),
    ok: R.ZBulkJob,
    errors: writer,
  },
  {
    method: 'get',
    path: '/api/audit',
    tag: 'audit',
    access: 'reader',
    summary: 'The audit trail, newest first',
    query: ZAuditQuery,
    ok: R.ZAuditPage,
    errors: [400],
  },
  {
    method: 'post',
    path: '/api/auth/login',
    tag: 'auth',
    access: 'public',
    summary: 'Sign in (accounts mode): JSON answers JSON with the session cookie; the form answers 303',
    body: ZLogin,
    ok: R.ZSignedIn,
    errors: [400, 401, 403, 413, 429, 503],
    other: { '303': redirect },
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    tag: 'auth',
    access: 'public',
    summary: 'Sign out: clears the session cookie, 303 to /login',
    errors: [403],
    other: { '303': redirect },
  },
  {
    method: 'get',
    path: '/api/auth/oidc/start',
    tag: 'auth',
    access: 'public',
    summary: 'OIDC mode: start a sign-in (303 to the provider; 404 in the other modes)',
    query: z.object({ next: z.string().max(2000).optional() }),
    other: { '303': redirect, '400': html, '401': html, '403': html, '404': html, '502': html },
  },
  {
    method: 'get',
    path: '/api/auth/oidc/callback',
    tag: 'auth',
    access: 'public',
    summary: "OIDC mode: the provider's redirect back (404 in the other modes)",
    other: { '303': redirect, '400': html, '401': html, '403': html, '404': html, '502': html },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'api',
    access: 'reader',
    summary: 'This description',
    other: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/workflows',
    tag: 'workflows',
    access: 'reader',
    summary: "Workflow runs newest first, one status at a time (a key of the adapter's `model.workflows.runStatuses`), paged by `cursor`",
    query: ZWorkflowListQuery,
    ok: R.ZWorkflowRunPageResponse,
    errors: readerOfBroker,
    description: "Where the adapter declares capability `workflows` (QueueFlow); elsewhere 501 Unsupported with the system's reason.",
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/workflows/{id}',
    tag: 'workflows',
    access: 'reader',
    summary: 'One run: its steps with state, duration, job, error and result, laid out in layers, and what each failed step blocks',
    params: { id: ZWorkflowId },
    ok: R.ZWorkflowDetailResponse,
    errors: readerOfBroker,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/workflows/{id}/retry',
    tag: 'workflows',
    access: 'operator',
    summary: "The system's retry of a failed run; `confirm` repeats the run's name, `reason` required",
    params: { id: ZWorkflowId },
    body: z.object({ confirm: z.string().describe("the run's name"), reason: ZReason.min(1).describe('why (required)') }),
    ok: R.ZWorkflowRetryResponse,
    errors: writer,
  },
  ...mappingRoutes({ writer, readerOfBroker, readerOfState }),
  ...alertRoutes({ writer, readerOfState }),
  ...viewExportRoutes({ writer, readerOfBroker, readerOfState }),
];

/** Outside /api: Prometheus metrics (docs/metrics.md). */
const METRICS_PATH = {
  get: {
    tags: ['metrics'],
    summary: 'Prometheus metrics (text exposition format); also readable by a `metrics`-role token, which reads nothing else',
    operationId: 'getMetrics',
    responses: {
      '200': { description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } },
      '401': {
        description: 'No or an unknown credential',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      '403': { description: 'Refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  },
};

/** A Prometheus rule file as YAML: `groups`, each with its `name` and `rules`. */
const RULE_FILE = {
  type: 'object',
  required: ['groups'],
  properties: {
    groups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'rules'],
        properties: { name: { type: 'string' }, rules: { type: 'array', items: { type: 'object' } } },
      },
    },
  },
};

/** Prometheus alert rules for the configured queue-health targets (docs/alerts.md). */
const ALERT_RULES_PATH = {
  get: {
    tags: ['metrics'],
    summary: 'Prometheus alert rules (YAML) for the queue-health targets, each annotated with the console link to its filtered view',
    operationId: 'getAlertRules',
    responses: {
      // The schema describes the YAML document (what a client gets after parsing it).
      '200': { description: 'A Prometheus rule file', content: { 'application/yaml': { schema: RULE_FILE } } },
      '401': METRICS_PATH.get.responses['401'],
      '403': METRICS_PATH.get.responses['403'],
    },
    security: [{ bearer: [] }, { session: [] }],
  },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input (`InvalidInput`, with `fields`)',
  401: 'Not signed in, unknown token (`Unauthorized`)',
  403: 'Not allowed: viewer, read-only, cross-site, metrics token (`Forbidden`, `ReadOnly`)',
  404: 'No such broker, task or letter (`NotFound`)',
  409: 'Conflict (`Conflict`)',
  413: 'Body larger than 2 MB (`PayloadTooLarge`)',
  429: 'Too many sign-in attempts (`TooManyAttempts`, Retry-After)',
  500: 'Unexpected (`Internal`)',
  501: "The broker cannot do this (`Unsupported`, with the capability's reason)",
  503: 'The broker (or the state store) cannot be reached (`BrokerUnavailable`, `NotMigrated`, `Unavailable`)',
  504: 'The broker took longer than the timeout (`BrokerTimeout`)',
};

type Json = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect); named schemas (`.meta({id})`)
 *  move from `$defs` to the components. An answer's objects are open: the DTOs are exact (the
 *  shared battery parses every adapter's answers strictly), but the description promises only
 *  the fields it names, so a field added in a later release does not fail a client validating
 *  against it (docs/api.md). A request body stays as strict as the route's own schema. */
function collect(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  });
  const {
    $schema: _s,
    $defs,
    ...body
  } = JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json & { $defs?: Json };
  if ($defs) for (const [k, v] of Object.entries($defs)) components[k] ??= v;
  return body;
}

function queryParameters(q: z.ZodObject, components: Json): Json[] {
  const json = collect(q, 'input', components) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema,
  }));
}

export function openApiDocument(opts: { brokers: string[]; mode: AuthMode; version: string }): Json {
  const components: Json = {};
  const errorRef = { $ref: '#/components/schemas/Error' };
  collect(R.ZErrorBody, 'output', components);
  const paths: Record<string, Json> = {};
  const security = [{ bearer: [] }, { session: [] }, ...(opts.mode === 'none' ? [{}] : [])];
  for (const r of ROUTES) {
    const pathParams = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const parameters: Json[] = pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: name === 'broker' ? { type: 'string', enum: opts.brokers } : collect(r.params?.[name] ?? z.string(), 'input', components),
    }));
    if (r.query) parameters.push(...queryParameters(r.query, components));
    const responses: Json = {};
    if (r.ok) responses['200'] = { description: 'OK', content: { 'application/json': { schema: collect(r.ok, 'output', components) } } };
    const statuses = new Set<number>([...(r.access === 'public' ? [] : [401, 403, 500]), ...(r.errors ?? [])]);
    if (r.errors?.length) statuses.add(500);
    for (const s of [...statuses].sort())
      responses[String(s)] = { description: STATUS_TEXT[s] ?? 'Error', content: { 'application/json': { schema: errorRef } } };
    // Node's HTTP parser answers a request line and headers over its 16 KB limit itself.
    if (r.query) responses['431'] = { description: 'Request line and headers larger than the server accepts (16 KB)' };
    Object.assign(responses, r.other ?? {});
    const op: Json = {
      tags: [r.tag],
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      operationId: `${r.method}${r.path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      ...(parameters.length ? { parameters } : {}),
      ...(r.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: collect(r.body, 'input', components) } } } }
        : {}),
      responses,
      security: r.access === 'public' ? [] : security,
      ...(r.access === 'operator' ? { 'x-role': 'operator' } : {}),
    };
    (paths[r.path] ??= {})[r.method] = op;
  }
  paths['/metrics'] = METRICS_PATH;
  paths['/api/alerts/rules'] = ALERT_RULES_PATH;
  for (const v of Object.values(components)) if (v && typeof v === 'object') delete (v as Json).id;
  return {
    openapi: '3.1.0',
    info: {
      title: 'potatoq console API',
      version: opts.version,
      description:
        'The HTTP API the console pages use. Reads are GET; actions are POST and go through one gate (same-site check, principal, role, per-broker read-only, input, reason, capability) and the audit trail. Send `Authorization: Bearer <token>` (POTATOQ_CONSOLE_TOKENS), or the session cookie of a signed-in user. Roles: `viewer` reads, `operator` also acts (operations marked `x-role: operator`); a `metrics` token reads /metrics only.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token (`npm run hash-password -- --token`)' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session cookie of /api/auth/login (accounts mode) or the OIDC sign-in',
        },
      },
    },
  };
}
