'use client';
import { useState } from 'react';
import { OutcomePanel } from '@/components/actions/outcome-panel';
import { useBrokerAction } from '@/components/actions/use-broker-action';
import { ReasonField } from '@/components/audit/reason-field';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorBox } from '@/components/ui/states';
import { deleteFamilyAction } from '@/lib/actions/broker-actions';
import type { ActionDecl } from '@/lib/brokers/schema';

/** Deletes a workflow with its whole subtree where the adapter declares it: says what goes and
 *  what the system refuses, takes the workflow's id typed again and a reason, shows the outcome. */
export function DeleteFamilyButton({
  brokerId,
  id,
  members,
  capped,
  decl,
  disabledReason,
}: {
  brokerId: string;
  id: string;
  members: number;
  capped: boolean;
  decl: ActionDecl & { guard: string };
  disabledReason?: string;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState('');
  const m = useBrokerAction(brokerId, (confirm: string) => deleteFamilyAction(brokerId, id, confirm, reason.trim() || undefined));
  const close = () => {
    setOpen(false);
    setTyped('');
    setReason('');
    m.reset();
  };
  const fieldError = m.data && !m.data.ok ? m.data.error.fields?.confirm : undefined;
  const reasonError = m.data && !m.data.ok ? m.data.error.fields?.reason : undefined;
  return (
    <>
      <Button
        variant="danger"
        size="sm"
        disabled={!!disabledReason}
        title={disabledReason}
        data-testid="action-delete-family"
        onClick={() => setOpen(true)}
      >
        Delete workflow with its subtree
      </Button>
      <Dialog open={open} onClose={close} title="Delete this workflow with its subtree?" testId="delete-family-dialog">
        <form
          className="grid gap-3 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            m.mutate(typed);
          }}
        >
          <p data-testid="confirm-summary">
            Deletes workflow <strong className="font-mono break-all">{id}</strong> on broker <strong>{brokerId}</strong> with{' '}
            {capped ? `at least ${members - 1}` : members - 1} other job(s) of its family. {decl.does}
          </p>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{decl.guard}</p>
          <label className="grid gap-1">
            <span>
              Type <strong className="font-mono break-all">{id}</strong> to confirm
            </span>
            <input
              className="input font-mono"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              data-testid="delete-family-confirm"
              aria-label="Workflow id to confirm"
              autoComplete="off"
              disabled={!!m.data?.ok}
            />
            {fieldError ? <span className="text-xs text-red-600">{fieldError}</span> : null}
          </label>
          <ReasonField value={reason} onChange={setReason} required error={reasonError} disabled={!!m.data?.ok} />
          {m.data?.ok ? <OutcomePanel result={m.data.data} /> : null}
          {m.data && !m.data.ok && !fieldError && !reasonError ? (
            <ErrorBox code={m.data.error.code} message={m.data.error.message} />
          ) : null}
          <div className="flex justify-end gap-2">
            <Button onClick={close} data-testid="confirm-cancel">
              {m.data?.ok ? 'Close' : 'Cancel'}
            </Button>
            {!m.data?.ok ? (
              <Button
                type="submit"
                variant="danger"
                disabled={typed.trim() !== id || !reason.trim() || m.isPending}
                data-testid="confirm-submit"
              >
                {m.isPending ? 'Deleting…' : 'Delete'}
              </Button>
            ) : null}
          </div>
        </form>
      </Dialog>
    </>
  );
}
