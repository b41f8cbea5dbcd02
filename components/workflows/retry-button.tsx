'use client';
import { useState } from 'react';
import { ReasonField } from '@/components/audit/reason-field';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorBox } from '@/components/ui/states';
import { useBrokerAction } from '@/components/actions/use-broker-action';
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
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState('');
  const [resets, setResets] = useState<string[]>([]);
  const m = useBrokerAction(brokerId, () => retryWorkflowAction(brokerId, run.id, typed, reason.trim() || undefined), 'retried');
  const close = () => {
    setOpen(false);
    setTyped('');
    setReason('');
    m.reset();
  };
  const err = m.data && !m.data.ok ? m.data.error : null;
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
      <Dialog open={open} onClose={close} title={`Retry workflow ${run.name}?`} testId="retry-dialog">
        <form
          className="grid gap-3 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            m.mutate(undefined);
          }}
        >
          <p data-testid="confirm-summary">
            Retry run <strong className="font-mono">{run.id}</strong> ({run.status}) on broker <strong>{brokerId}</strong>:{' '}
            <strong data-testid="retry-count">{n}</strong> step{n === 1 ? '' : 's'} go back to pending
            {n ? `: ${resets.slice(0, 20).map(visible).join(', ')}${n > 20 ? ', …' : ''}` : ''}.
          </p>
          {decl ? <p className="text-zinc-600 dark:text-zinc-400">{decl.retry.does}</p> : null}
          <label className="grid gap-1">
            <span>
              Type <strong className="font-mono">{visible(run.name)}</strong> to confirm
            </span>
            <input
              className="input font-mono"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              data-testid="retry-confirm-input"
              aria-label="Workflow name to confirm"
              autoComplete="off"
              disabled={!!m.data?.ok}
            />
            {err?.fields?.confirm ? <span className="text-xs text-red-600">{err.fields.confirm}</span> : null}
          </label>
          <ReasonField value={reason} onChange={setReason} required error={err?.fields?.reason} disabled={!!m.data?.ok} />
          {m.data?.ok ? (
            <p role="status" data-testid="action-outcome" className="font-semibold text-emerald-700 dark:text-emerald-400">
              {m.data.data.succeeded[0]?.message}
            </p>
          ) : null}
          {err && !err.fields?.confirm && !err.fields?.reason ? <ErrorBox code={err.code} message={err.message} /> : null}
          <div className="flex justify-end gap-2">
            <Button onClick={close} data-testid="confirm-cancel">
              {m.data?.ok ? 'Close' : 'Cancel'}
            </Button>
            {!m.data?.ok ? (
              <Button
                type="submit"
                variant="danger"
                disabled={typed !== run.name || !reason.trim() || m.isPending}
                data-testid="confirm-submit"
              >
                {m.isPending ? 'Retrying…' : `Retry ${n} step${n === 1 ? '' : 's'}`}
              </Button>
            ) : null}
          </div>
        </form>
      </Dialog>
    </>
  );
}
