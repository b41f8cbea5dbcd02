import 'server-only';
import { blockedSteps, layoutSteps } from '@/lib/brokers/workflow-graph';
import type { WorkflowDetail, WorkflowRun, WorkflowStep } from '@/lib/brokers/workflow-schema';
import type { QfStepState, QfWorkflow } from './workflows-wire';
import { CONDITION_NOT_MET } from './workflows-model';

export const runOf = (w: QfWorkflow): WorkflowRun => ({
  id: w.id,
  name: w.name,
  status: w.status,
  createdAt: w.created_at,
  startedAt: w.started_at ?? null,
  completedAt: w.completed_at ?? null,
  error: w.error_message ?? null,
  retries: w.retry_count,
  stepCount: w.steps.length,
  parent: w.parent_workflow_id ? { id: w.parent_workflow_id, step: w.parent_step_name ?? '' } : null,
});

/** The most of one step's result or payload sent to the browser (JSON text), and of the seed context. */
export const TEXT_CAP = 20_000;

/** JSON text of a value, cut at `TEXT_CAP` characters; null for none. Never markup: the page shows it as text. */
export function jsonText(v: unknown): { text: string | null; cut: boolean } {
  if (v === undefined) return { text: null, cut: false };
  const s = JSON.stringify(v, null, 2) ?? 'null';
  return s.length > TEXT_CAP ? { text: s.slice(0, TEXT_CAP), cut: true } : { text: s, cut: false };
}

const secondsBetween = (from: string | undefined, to: string | undefined, now: Date): number | null => {
  if (!from) return null;
  const a = Date.parse(from);
  const b = to ? Date.parse(to) : now.getTime();
  return Number.isNaN(a) || Number.isNaN(b) ? null : Math.max(0, (b - a) / 1000);
};

/** Done for what depends on it: completed, or skipped by its own condition (QueueFlow's
 *  `satisfies_dependents`): its dependents run. */
const satisfies = (s: QfStepState | undefined) =>
  !!s && (s.status === 'completed' || (s.status === 'skipped' && s.error === CONDITION_NOT_MET));

/**
 * A run as the Workflows view draws it: QueueFlow's step definitions (declaration order) with
 * their live states, the step results from the run's context (`context[<step name>]`, what
 * later steps receive under `_context`), the layered layout, and what each failed step blocks:
 * every step downstream of it that did not complete (cancelled by a halt, skipped after
 * `continue`/`skip`, or still pending).
 */
export function mapDetail(wf: QfWorkflow, states: QfStepState[], retryable: boolean, now: Date): WorkflowDetail {
  const byName = new Map(states.map((s) => [s.name, s]));
  const graph = wf.steps.map((s) => ({ name: s.name, dependsOn: s.depends_on }));
  const placed = layoutSteps(graph);
  const failed = wf.steps.filter((s) => byName.get(s.name)?.status === 'failed').map((s) => s.name);
  const blocked = blockedSteps(graph, failed, (n) => satisfies(byName.get(n)));
  const context = wf.context ?? {};
  const stepNames = new Set(wf.steps.map((s) => s.name));
  const steps: WorkflowStep[] = wf.steps.map((d) => {
    const st = byName.get(d.name);
    const result = jsonText(stepNames.has(d.name) && Object.hasOwn(context, d.name) ? context[d.name] : undefined);
    const status = st?.status ?? 'pending';
    return {
      name: d.name,
      task: d.task_name || (d.workflow ? '(sub-workflow)' : ''),
      status,
      detail: status === 'pending' && (st?.job_id || st?.child_workflow_id) ? 'scheduled' : null,
      dependsOn: d.depends_on,
      onFailure: d.on_failure ?? 'halt',
      queue: d.queue ?? null,
      jobId: st?.job_id ?? null,
      childRunId: st?.child_workflow_id ?? null,
      error: st?.error ?? null,
      startedAt: st?.started_at ?? null,
      completedAt: st?.completed_at ?? null,
      seconds: secondsBetween(st?.started_at, st?.completed_at, now),
      fanOut: st?.fan_out ?? null,
      result: result.text,
      resultCut: result.cut,
      payload: jsonText(d.payload ?? {}).text,
      layer: placed.get(d.name)?.layer ?? 0,
      row: placed.get(d.name)?.row ?? 0,
      blockedBy: blocked.get(d.name) ?? null,
    };
  });
  // The seed context: what the run was created with, not the steps' results.
  const seed = Object.fromEntries(Object.entries(context).filter(([k]) => !stepNames.has(k)));
  const resets = wf.steps.filter((s) => !satisfies(byName.get(s.name))).map((s) => s.name);
  return {
    ...runOf(wf),
    steps,
    failedSteps: failed,
    retry: retryable
      ? { on: true, resets }
      : { on: false, why: `QueueFlow retries only failed, partially failed or cancelled runs; this one is ${wf.status}`, resets: [] },
    context: Object.keys(seed).length ? jsonText(seed).text : null,
    readAt: now.toISOString(),
  };
}
