'use client';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { FullTime } from '@/components/ui/time';
import type { WorkflowStep, WorkflowsDecl } from '@/lib/brokers/workflow-schema';
import { formatAge } from '@/lib/text/format';
import { visible } from '@/lib/text/visible';
import { TONE } from './tones';

/** One step: state, times, its job, error, what it blocks or is blocked by, and its result
 *  (what later steps received under `_context`) and payload as text, never markup. */
export function StepPanel({
  brokerId,
  step,
  decl,
  blocks,
}: {
  brokerId: string;
  step: WorkflowStep;
  decl?: WorkflowsDecl;
  blocks: string[];
}) {
  const d = decl?.stepStatuses.find((s) => s.key === step.status);
  const base = `/brokers/${encodeURIComponent(brokerId)}`;
  return (
    <div className="grid gap-2 p-4 text-sm" data-testid="step-panel">
      <div className="flex flex-wrap items-center gap-2">
        <strong className="font-mono break-all">{visible(step.name)}</strong>
        <Badge tone={TONE[d?.role ?? 'waiting']} title={d?.means} testId="step-status">
          {step.status}
          {step.detail ? ` (${step.detail})` : ''}
        </Badge>
        <span className="text-zinc-500">task {visible(step.task)}</span>
        {step.queue ? <span className="text-zinc-500">queue {visible(step.queue)}</span> : null}
        {step.onFailure ? <span className="text-zinc-500">on failure: {step.onFailure}</span> : null}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt>Scheduled</dt>
        <dd>{step.startedAt ? <FullTime iso={step.startedAt} /> : '—'}</dd>
        <dt>Settled</dt>
        <dd>{step.completedAt ? <FullTime iso={step.completedAt} /> : '—'}</dd>
        <dt>Duration</dt>
        <dd data-testid="step-duration">{step.seconds === null ? '—' : formatAge(step.seconds)}</dd>
        <dt>Job</dt>
        <dd>
          {step.jobId ? (
            <Link className="link font-mono" href={`${base}/jobs/${encodeURIComponent(step.jobId)}`} data-testid="step-job">
              {step.jobId}
            </Link>
          ) : (
            '—'
          )}
        </dd>
        {step.childRunId ? (
          <>
            <dt>Sub-workflow</dt>
            <dd>
              <Link className="link font-mono" href={`${base}/workflows/${encodeURIComponent(step.childRunId)}`}>
                {step.childRunId}
              </Link>
            </dd>
          </>
        ) : null}
        {step.fanOut ? (
          <>
            <dt>Fan-out</dt>
            <dd>
              {step.fanOut.completed} of {step.fanOut.total} completed, {step.fanOut.failed} failed
            </dd>
          </>
        ) : null}
        <dt>Depends on</dt>
        <dd className="font-mono break-all">{step.dependsOn.length ? step.dependsOn.map(visible).join(', ') : '—'}</dd>
      </dl>
      {step.error ? (
        <p className="text-red-700 dark:text-red-400" data-testid="step-error">
          {visible(step.error)}
        </p>
      ) : null}
      {step.blockedBy ? <p data-testid="step-blocked">Blocked by the failed step {visible(step.blockedBy)}.</p> : null}
      {blocks.length ? (
        <p data-testid="step-blocks">
          Blocks {blocks.length} step{blocks.length === 1 ? '' : 's'}: {blocks.slice(0, 30).map(visible).join(', ')}
          {blocks.length > 30 ? ', …' : ''}
        </p>
      ) : null}
      <details open={!!step.result}>
        <summary>Result passed downstream (_context){step.resultCut ? ' (cut)' : ''}</summary>
        <pre className="max-h-64 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900" data-testid="step-result">
          {step.result ?? 'none recorded'}
        </pre>
      </details>
      <details>
        <summary>Payload</summary>
        <pre className="max-h-64 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900">{step.payload ?? '{}'}</pre>
      </details>
    </div>
  );
}
