'use client';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/actions/confirm-dialog';
import { confirmState } from '@/components/actions/confirm-state';
import { useBrokerAction } from '@/components/actions/use-broker-action';
import { Button } from '@/components/ui/button';
import { scheduleAction } from '@/lib/actions/schedule-actions';
import type { Schedule, ScheduleAction } from '@/lib/brokers/schedule';
import type { ActionDecl } from '@/lib/brokers/model';

const LABEL: Record<ScheduleAction, string> = { pause: 'Pause', resume: 'Resume', delete: 'Delete', 'run-now': 'Run now' };
const DONE: Record<ScheduleAction, string> = { pause: 'paused', resume: 'resumed', delete: 'deleted', 'run-now': 'ran now' };

/** A fresh idempotency key per dialog: a retried submit of the same dialog makes one job. */
const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`.replace('.', '');

/** A row's button for one action: opens the dialog the view holds (outside the row, so a row
 *  that changes or goes after the action keeps the dialog and its outcome on screen). */
export function ScheduleActionButton({
  action,
  decl,
  disabledReason,
  onOpen,
}: {
  action: ScheduleAction;
  decl: ActionDecl;
  disabledReason?: string;
  onOpen: () => void;
}) {
  return (
    <Button
      size="sm"
      variant={action === 'delete' ? 'danger' : 'secondary'}
      disabled={!!disabledReason}
      title={disabledReason ?? decl.does}
      data-testid={`schedule-${action}`}
      onClick={onOpen}
    >
      {LABEL[action]}
    </Button>
  );
}

/** One schedule action: what it does (the adapter's sentence), the name typed to confirm, a reason. */
export function ScheduleActionDialog({
  brokerId,
  schedule,
  action,
  decl,
  onClose,
}: {
  brokerId: string;
  schedule: Schedule;
  action: ScheduleAction;
  decl: ActionDecl;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  // One key per dialog: a retried submit of this dialog makes one job.
  const [key] = useState(newKey);
  const m = useBrokerAction(
    brokerId,
    (confirm: string) =>
      scheduleAction(brokerId, action, {
        id: schedule.id,
        confirm,
        reason: reason.trim() || undefined,
        ...(action === 'run-now' ? { key } : {}),
      }),
    DONE[action],
  );
  const close = () => {
    m.reset();
    onClose();
  };
  const s = confirmState(m);
  const danger = action === 'delete';
  return (
    <ConfirmDialog
      open
      onClose={close}
      brokerId={brokerId}
      title={`${LABEL[action]} schedule ${schedule.name}?`}
      testId="schedule-action-dialog"
      danger={danger}
      typed={{ name: schedule.name, label: 'Schedule name to confirm', testId: 'schedule-confirm-input', error: s.confirmError }}
      reason={{ value: reason, onChange: setReason, required: danger, error: s.reasonError }}
      submitLabel={LABEL[action]}
      pendingLabel="Working…"
      pending={s.pending}
      onSubmit={(confirm) => m.mutate(confirm)}
      done={s.done}
      error={s.error}
      outcome={
        m.data?.ok ? (
          <p role="status" data-testid="action-outcome" className="font-semibold text-emerald-700 dark:text-emerald-400">
            {m.data.data.message}
            {m.data.data.jobId ? (
              <>
                {' '}
                <a className="link" href={`/brokers/${encodeURIComponent(brokerId)}/jobs/${encodeURIComponent(m.data.data.jobId)}`}>
                  Open the job
                </a>
              </>
            ) : null}
          </p>
        ) : null
      }
    >
      <p data-testid="confirm-summary">{decl.does}</p>
      {action === 'run-now' ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          Idempotency key of this firing: <span className="font-mono">{key}</span>
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
