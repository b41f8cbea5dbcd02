'use client';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { ErrorBox, Loading } from '@/components/ui/states';
import { FullTime } from '@/components/ui/time';
import { describeError } from '@/lib/client/api';
import { useOverview } from '@/lib/client/hooks';
import { visible } from '@/lib/text/visible';
import { RetryWorkflowButton } from './retry-button';
import { StepPanel } from './step-panel';
import { TONE } from './tones';
import { roleOf, useWorkflow } from './use-workflows';
import { WorkflowGraph } from './workflow-graph';

/** One run: its status and cause, the DAG (failed step and what it blocks marked), the
 *  selected step's details, the retry, and what this system does not show. */
export function WorkflowDetailView({ brokerId, id }: { brokerId: string; id: string }) {
  const o = useOverview(brokerId);
  const decl = o.data?.model?.workflows;
  const q = useWorkflow(brokerId, id, decl);
  const [picked, setPicked] = useState<string | null>(null);
  const blocks = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const s of q.data?.steps ?? []) if (s.blockedBy) m.set(s.blockedBy, [...(m.get(s.blockedBy) ?? []), s.name]);
    return m;
  }, [q.data]);
  if (q.error && !q.data) return <ErrorBox {...describeError(q.error)} />;
  if (!q.data) return <Loading />;
  const run = q.data;
  const selected = run.steps.find((s) => s.name === (picked ?? run.failedSteps[0] ?? run.steps[0]?.name)) ?? null;
  const base = `/brokers/${encodeURIComponent(brokerId)}/workflows`;
  const retryCap = o.data?.capabilities.retryWorkflow;
  return (
    <div className="grid gap-4">
      <Card testId="workflow-run">
        <CardHeader title={<span className="break-all">{visible(run.name)}</span>}>
          <RetryWorkflowButton
            brokerId={brokerId}
            run={run}
            decl={decl}
            disabledReason={retryCap && !retryCap.on ? retryCap.why : undefined}
          />
        </CardHeader>
        <div className="grid gap-2 p-4 text-sm">
          <div className="flex flex-wrap items-center gap-3">
            <Badge tone={TONE[roleOf(decl?.runStatuses, run.status)]} testId="run-status">
              {run.status}
            </Badge>
            <span className="font-mono text-xs">{run.id}</span>
            <span>{run.stepCount} steps</span>
            <span>retried {run.retries}×</span>
            <span>
              created <FullTime iso={run.createdAt} />
            </span>
            {run.completedAt ? (
              <span>
                settled <FullTime iso={run.completedAt} />
              </span>
            ) : null}
            {run.parent ? (
              <Link className="link" href={`${base}/${encodeURIComponent(run.parent.id)}`}>
                parent run (step {visible(run.parent.step)})
              </Link>
            ) : null}
          </div>
          {run.error ? (
            <p className="text-red-700 dark:text-red-400" data-testid="run-error">
              {visible(run.error)}
            </p>
          ) : null}
          {run.failedSteps.length ? (
            <p data-testid="run-blocked">
              Failed: {run.failedSteps.map(visible).join(', ')}; {run.steps.filter((s) => s.blockedBy).length} step(s) blocked by it
              (dashed).
            </p>
          ) : null}
        </div>
        <WorkflowGraph steps={run.steps} decl={decl} selected={selected?.name ?? null} onSelect={setPicked} />
      </Card>
      {selected ? (
        <Card testId="workflow-step">
          <StepPanel brokerId={brokerId} step={selected} decl={decl} blocks={blocks.get(selected.name) ?? []} />
        </Card>
      ) : null}
      <Card>
        <CardHeader title="Steps" />
        <ul className="max-h-96 divide-y divide-zinc-100 overflow-auto text-sm dark:divide-zinc-800" data-testid="step-list">
          {run.steps.map((s) => (
            <li key={s.name}>
              <button
                type="button"
                className="flex w-full gap-3 px-4 py-1 text-left hover:bg-zinc-50 dark:hover:bg-zinc-900"
                onClick={() => setPicked(s.name)}
              >
                <span className="font-mono">{visible(s.name)}</span>
                <span>{s.status}</span>
                {s.blockedBy ? <span className="text-amber-700">blocked by {visible(s.blockedBy)}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      </Card>
      {decl?.unseen.length ? (
        <Card>
          <CardHeader title="What this view cannot show" />
          <ul className="grid list-disc gap-1 p-4 pl-8 text-sm text-zinc-600 dark:text-zinc-400">
            {decl.unseen.map((u) => (
              <li key={u}>{u}</li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}
