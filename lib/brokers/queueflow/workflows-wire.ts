import 'server-only';
import { z } from 'zod';

// QueueFlow 0.6.0's workflow answers (queueflow-api `dto.rs`, queueflow-core `domain.rs`):
// `GET /api/v1/workflows` (`ListWorkflowsResponse`), `GET /api/v1/workflows/{id}` (`Workflow`:
// step definitions, the shared context) and `GET /api/v1/workflows/{id}/steps` (live state per
// step, declaration order). Optional fields are absent when unset; unknown ones are kept.

const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

export const ZQfStepDef = z.looseObject({
  name: z.string(),
  task_name: z.string().default(''),
  payload: z.unknown().optional(),
  depends_on: z.array(z.string()).default([]),
  queue: opt(z.string()),
  on_failure: opt(z.string()),
  /** A sub-workflow step carries its child's definition. */
  workflow: z.unknown().optional(),
  fan_out: z.unknown().optional(),
});

export const ZQfWorkflow = z.looseObject({
  id: z.string(),
  name: z.string(),
  steps: z.array(ZQfStepDef),
  status: z.string(),
  created_at: z.string(),
  started_at: opt(z.string()),
  completed_at: opt(z.string()),
  error_message: opt(z.string()),
  retry_count: z.number().int().default(0),
  parent_workflow_id: opt(z.string()),
  parent_step_name: opt(z.string()),
  /** Step results keyed by step name, plus the seed context the run was created with. */
  context: opt(z.record(z.string(), z.unknown())),
});
export type QfWorkflow = z.infer<typeof ZQfWorkflow>;

export const ZQfWorkflowPage = z.object({
  workflows: z.array(ZQfWorkflow),
  has_more: z.boolean(),
  next_cursor: opt(z.string()),
  total: opt(z.number()),
});

export const ZQfStepState = z.looseObject({
  name: z.string(),
  status: z.string(),
  job_id: opt(z.string()),
  error: opt(z.string()),
  started_at: opt(z.string()),
  completed_at: opt(z.string()),
  child_workflow_id: opt(z.string()),
  fan_out: opt(z.object({ total: z.number(), completed: z.number(), failed: z.number() })),
});
export type QfStepState = z.infer<typeof ZQfStepState>;

export const ZQfStepStates = z.object({ steps: z.array(ZQfStepState) });
