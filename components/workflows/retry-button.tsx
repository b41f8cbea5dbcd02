'use client';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/actions/confirm-dialog';
import { confirmState } from '@/components/actions/confirm-state';
import { useBrokerAction } from '@/components/actions/use-broker-action';
import { Button } from '@/components/ui/button';
import { retryWorkflowAction } from '@/lib/actions/workflow-actions';
import type { WorkflowDetail, WorkflowsDecl } from '@/lib/brokers/workflow-schema';
import { visible } from '@/lib/text/visible';

/** The system's retry of a failed run: says what it does and to how many steps, asks for the
 *  run's name and a reason, and reports the outcome. */
export function RetryWorkflowButton({
  brokerId,
  run,
  decl,
  disabledReason,
}: {
  brokerId: string;
  run: WorkflowDetail;
  decl?: WorkflowsDecl;
  disabledReason?: string;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [resets, setResets] = useState<string[]>([]);
  const m = useBrokerAction(
    brokerId,
    (confirm: string) => retryWorkflowAction(brokerId, run.id, confirm, reason.trim() || undefined),
    'retried',
  );
  const close = () => {
    setOpen(false);
    setReason('');
    m.reset();
  };
  const s = confirmState(m);
  const why = disabledReason ?? (run.retry.on ? undefined : run.retry.why);
  const n = resets.length;
  return (
    <>
      <Button
        variant="danger"
        size="sm"
        disabled={!!why}
        title={why}
        data-testid="action-retry-workflow"
        onClick={() => {
          setResets(run.retry.resets);
          setOpen(true);
        }}
      >
        Retry workflow
      </Button>
      <ConfirmDialog
        open={open}
        onClose={close}
        brokerId={brokerId}
        title={`Retry workflow ${run.name}?`}
        testId="retry-dialog"
        danger
        typed={{ name: run.name, label: 'Workflow name to confirm', testId: 'retry-confirm-input', error: s.confirmError }}
        reason={{ value: reason, onChange: setReason, required: true, error: s.reasonError }}
        submitLabel={`Retry ${n} step${n === 1 ? '' : 's'}`}
        pendingLabel="Retrying…"
        pending={s.pending}
        onSubmit={(confirm) => m.mutate(confirm)}
        done={s.done}
        error={s.error}
        outcome={
          m.data?.ok ? (
            <p role="status" data-testid="action-outcome" className="font-semibold text-emerald-700 dark:text-emerald-400">
              {m.data.data.succeeded[0]?.message}
            </p>
          ) : null
        }
      >
        <p data-testid="confirm-summary">
          Retry run <strong className="font-mono">{run.id}</strong> ({run.status}) on broker <strong>{brokerId}</strong>:{' '}
          <strong data-testid="retry-count">{n}</strong> step{n === 1 ? '' : 's'} go back to pending
          {n ? `: ${resets.slice(0, 20).map(visible).join(', ')}${n > 20 ? ', …' : ''}` : ''}.
        </p>
        {decl ? <p className="text-zinc-600 dark:text-zinc-400">{decl.retry.does}</p> : null}
      </ConfirmDialog>
    </>
  );
}
