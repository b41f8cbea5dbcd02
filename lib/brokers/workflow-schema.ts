// Workflow runs (a DAG of steps, each one task) as every system shows them: the neutral DTOs
// and inputs of the Workflows view. Client-safe: no server imports. Which systems have
// workflows is each adapter's `workflows` capability; their words are `model.workflows`.
import { z } from 'zod';

/** The part a run or step status plays, so shared code never reads a system's status names. */
export const RUN_ROLES = ['waiting', 'running', 'done', 'failed', 'cancelled'] as const;
export const ZRunRole = z.enum(RUN_ROLES);
export type RunRole = z.infer<typeof ZRunRole>;

/** One status as the system names it, with the part it plays and one sentence of what it means. */
export const ZStatusDecl = z.object({ key: z.string(), label: z.string(), role: ZRunRole, means: z.string() });
export type StatusDecl = z.infer<typeof ZStatusDecl>;

/** What an adapter with workflows declares (`model.workflows`): its run and step statuses in
 *  tab order, which statuses may be retried, and what the retry does there, in its words. */
export const ZWorkflowsDecl = z.object({
  runStatuses: z.array(ZStatusDecl),
  stepStatuses: z.array(ZStatusDecl),
  retry: z.object({ does: z.string(), from: z.array(z.string()) }),
  /** What the view cannot see on this system, one sentence each (shown on the page). */
  unseen: z.array(z.string()),
});
export type WorkflowsDecl = z.infer<typeof ZWorkflowsDecl>;

/** A workflow run in a list: no steps. Times are ISO strings; `error` is the system's cause. */
export const ZWorkflowRun = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  error: z.string().nullable(),
  retries: z.number().int(),
  stepCount: z.number().int(),
  /** The run that spawned this one as a step, and that step's name (sub-workflows). */
  parent: z.object({ id: z.string(), step: z.string() }).nullable(),
});
export type WorkflowRun = z.infer<typeof ZWorkflowRun>;

export const ZWorkflowRunPage = z.object({
  items: z.array(ZWorkflowRun),
  /** Opaque: pass back as `cursor`; null at the end. */
  nextCursor: z.string().nullable(),
  /** Runs of this status in all, when the system counted them; null: not counted. */
  total: z.number().int().nullable(),
});
export type WorkflowRunPage = z.infer<typeof ZWorkflowRunPage>;

/** One step of a run: its definition, its live state and where it sits in the drawing. */
export const ZWorkflowStep = z.object({
  name: z.string(),
  task: z.string(),
  status: z.string(),
  /** A short word for a state the system's status does not say, e.g. "scheduled" for a pending
   *  step whose job exists; null otherwise. */
  detail: z.string().nullable(),
  dependsOn: z.array(z.string()),
  /** The system's own failure policy for this step, in its words (`halt`). */
  onFailure: z.string().nullable(),
  queue: z.string().nullable(),
  jobId: z.string().nullable(),
  childRunId: z.string().nullable(),
  error: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Seconds from `startedAt` to `completedAt` (or to the read, while unfinished); null: not started. */
  seconds: z.number().nullable(),
  fanOut: z.object({ total: z.number(), completed: z.number(), failed: z.number() }).nullable(),
  /** What the step passed downstream (its entry in the run's shared context), as JSON text
   *  (cut past a bound, `resultCut`); null: none recorded. Rendered as text, never markup. */
  result: z.string().nullable(),
  resultCut: z.boolean(),
  /** The step's own payload as JSON text (bounded the same way). */
  payload: z.string().nullable(),
  /** Layer (column) and row in the layered drawing. */
  layer: z.number().int(),
  row: z.number().int(),
  /** Set on the steps a failed step keeps from running: that failed step's name. */
  blockedBy: z.string().nullable(),
});
export type WorkflowStep = z.infer<typeof ZWorkflowStep>;

export const ZWorkflowDetail = ZWorkflowRun.extend({
  steps: z.array(ZWorkflowStep),
  /** Names of the failed steps (the roots of what is blocked). */
  failedSteps: z.array(z.string()),
  /** Whether the run may be retried now, and what a retry would reset (step names). */
  retry: z.object({ on: z.boolean(), why: z.string().optional(), resets: z.array(z.string()) }),
  /** Seed context keys the run started with (not step results), as JSON text, bounded. */
  context: z.string().nullable(),
  readAt: z.string(),
});
export type WorkflowDetail = z.infer<typeof ZWorkflowDetail>;

/** The newest failed runs and how many there are: the overview card and /metrics. */
export const ZWorkflowHealth = z.object({
  /** Runs now in a failed role; null: the system did not count them. */
  failed: z.number().int().nullable(),
  recent: z.array(z.object({ id: z.string(), name: z.string(), status: z.string(), error: z.string().nullable(), at: z.string() })),
});
export type WorkflowHealth = z.infer<typeof ZWorkflowHealth>;

/** A list request: one status (a declared one; the service checks), a cursor, a page size. */
export const ZWorkflowListQuery = z.object({
  status: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'not a status name')
    .optional(),
  cursor: z.string().max(500, 'cursor longer than 500 characters').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type WorkflowListQuery = z.infer<typeof ZWorkflowListQuery>;

/** A run id as the console accepts it before any system sees it; each system checks its own shape. */
export const ZWorkflowId = z
  .string()
  .trim()
  .min(1, 'workflow id is required')
  .max(200, 'workflow id longer than 200 characters')
  .regex(/^[\x21-\x7e]+$/, 'a workflow id is printable characters without spaces');

/** Retry one run; `confirm` must repeat its name (typed confirmation), `reason` goes to the audit trail. */
export const ZWorkflowRetryRequest = z.object({
  id: ZWorkflowId,
  confirm: z.string({ error: "type the workflow's name to confirm" }).max(500),
  reason: z.string().optional(),
});
export type WorkflowRetryRequest = z.infer<typeof ZWorkflowRetryRequest>;

export const ZWorkflowRetryResult = z.object({
  brokerId: z.string(),
  id: z.string(),
  name: z.string(),
  /** The status before the retry, and the steps it sent back to pending. */
  before: z.string(),
  resets: z.array(z.string()),
  /** Runs asked for (one): the per-id outcome shape every action answers in. */
  requested: z.number().int(),
  succeeded: z.array(z.object({ id: z.string(), outcome: z.literal('ok'), message: z.string() })),
  failed: z.array(z.object({ id: z.string(), outcome: z.string(), message: z.string() })),
});
export type WorkflowRetryResult = z.infer<typeof ZWorkflowRetryResult>;
