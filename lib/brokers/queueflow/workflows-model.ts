import 'server-only';
import type { WorkflowsDecl } from '@/lib/brokers/workflow-schema';

// QueueFlow 0.6.0's workflow and step statuses (queueflow-core `domain.rs`: WorkflowStatus,
// StepStatus) and its retry (`WorkflowScheduler::retry`), in the words the Workflows view shows.

/** The statuses `POST /api/v1/workflows/{id}/retry` accepts; any other is its 409. */
export const QF_RETRYABLE = ['failed', 'partially_failed', 'cancelled'];

/** A step skipped by its `when` condition: its dependents still run (`CONDITION_NOT_MET`). */
export const CONDITION_NOT_MET = 'condition not met';

export const QF_WORKFLOWS: WorkflowsDecl = {
  runStatuses: [
    { key: 'running', label: 'Running', role: 'running', means: 'Steps are being scheduled as their dependencies complete.' },
    {
      key: 'failed',
      label: 'Failed',
      role: 'failed',
      means: 'A step failed under its `halt` policy (the default): QueueFlow cancelled every unfinished step.',
    },
    {
      key: 'partially_failed',
      label: 'Partially failed',
      role: 'failed',
      means: 'Every step settled, and some failed or were skipped by a failure policy (`continue`, `skip`): their dependents were skipped.',
    },
    { key: 'completed', label: 'Completed', role: 'done', means: 'Every step completed (or was skipped by its condition).' },
    { key: 'cancelled', label: 'Cancelled', role: 'cancelled', means: 'Cancelled by a user, or by its parent workflow ending.' },
    {
      key: 'created',
      label: 'Created',
      role: 'waiting',
      means: 'Stored but not started yet (QueueFlow starts a run at once; seen only in that instant).',
    },
  ],
  stepStatuses: [
    {
      key: 'pending',
      label: 'Pending',
      role: 'waiting',
      means: 'Not scheduled yet, or its job waits for a worker ("scheduled": its job exists).',
    },
    { key: 'running', label: 'Running', role: 'running', means: 'Running (QueueFlow 0.6.0 keeps a step pending while its job runs).' },
    {
      key: 'completed',
      label: 'Completed',
      role: 'done',
      means: 'Its result is in the run’s context, passed to later steps under `_context`.',
    },
    { key: 'failed', label: 'Failed', role: 'failed', means: 'Its job failed for good (retries exhausted or a non-retryable error).' },
    { key: 'cancelled', label: 'Cancelled', role: 'cancelled', means: 'Cancelled because the run halted, timed out or was cancelled.' },
    {
      key: 'skipped',
      label: 'Skipped',
      role: 'cancelled',
      means: 'Its condition was false ("condition not met"), or a dependency did not complete.',
    },
  ],
  retry: {
    does: "QueueFlow's retry of the run (POST /api/v1/workflows/{id}/retry): every step that did not complete (failed, cancelled, or skipped by a failure policy) goes back to pending with a new job, scheduled as its dependencies allow; completed steps keep their results and do not run again. The run becomes running and its retry count goes up. Fix the cause first: the same inputs fail the same way.",
    from: QF_RETRYABLE,
  },
  unseen: [
    "A step's job status while it waits or runs: QueueFlow 0.6.0 keeps the step pending until its job finishes (the job page has the job's own state).",
    "A step's duration counts from when its job was created (queue wait included) to when the step settled: QueueFlow records no step start by a worker.",
    'Fan-out children one by one: the step shows how many completed and failed; its job link is the first child.',
    'Which operator or client created a run: QueueFlow does not record it.',
  ],
};
