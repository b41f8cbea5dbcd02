'use client';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/actions/confirm-dialog';
import { confirmState } from '@/components/actions/confirm-state';
import { OutcomePanel } from '@/components/actions/outcome-panel';
import { useBrokerAction } from '@/components/actions/use-broker-action';
import { Button } from '@/components/ui/button';
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
  const [reason, setReason] = useState('');
  const m = useBrokerAction(brokerId, (confirm: string) => deleteFamilyAction(brokerId, id, confirm, reason.trim() || undefined));
  const close = () => {
    setOpen(false);
    setReason('');
    m.reset();
  };
  const s = confirmState(m);
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
      <ConfirmDialog
        open={open}
        onClose={close}
        brokerId={brokerId}
        title="Delete this workflow with its subtree?"
        testId="delete-family-dialog"
        danger
        typed={{ name: id, label: 'Workflow id to confirm', testId: 'delete-family-confirm', error: s.confirmError }}
        reason={{ value: reason, onChange: setReason, required: true, error: s.reasonError }}
        submitLabel="Delete"
        pendingLabel="Deleting…"
        pending={s.pending}
        onSubmit={(confirm) => m.mutate(confirm)}
        done={s.done}
        error={s.error}
        outcome={m.data?.ok ? <OutcomePanel result={m.data.data} /> : null}
      >
        <p data-testid="confirm-summary">
          Deletes workflow <strong className="font-mono break-all">{id}</strong> on broker <strong>{brokerId}</strong> with{' '}
          {capped ? `at least ${members - 1}` : members - 1} other job(s) of its family. {decl.does}
        </p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{decl.guard}</p>
      </ConfirmDialog>
    </>
  );
}
