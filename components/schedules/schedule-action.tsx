'use client';
import { useState } from 'react';
import { ReasonField } from '@/components/audit/reason-field';
import { useBrokerAction } from '@/components/actions/use-broker-action';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorBox } from '@/components/ui/states';
import { scheduleAction } from '@/lib/actions/schedule-actions';
import type { Schedule, ScheduleAction } from '@/lib/brokers/schedule';
import type { ActionDecl } from '@/lib/brokers/model';
import { visible } from '@/lib/text/visible';

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
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState('');
  // One key per dialog: a retried submit of this dialog makes one job.
  const [key] = useState(newKey);
  const m = useBrokerAction(
    brokerId,
    () =>
      scheduleAction(brokerId, action, {
        id: schedule.id,
        confirm: typed,
        reason: reason.trim() || undefined,
        ...(action === 'run-now' ? { key } : {}),
      }),
    DONE[action],
  );
  const close = () => {
    m.reset();
    onClose();
  };
  const err = m.data && !m.data.ok ? m.data.error : null;
  const danger = action === 'delete';
  return (
    <>
      <Dialog open onClose={close} title={`${LABEL[action]} schedule ${schedule.name}?`} testId="schedule-action-dialog">
        <form
          className="grid gap-3 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            m.mutate(undefined);
          }}
        >
          <p data-testid="confirm-summary">{decl.does}</p>
          {action === 'run-now' ? (
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              Idempotency key of this firing: <span className="font-mono">{key}</span>
            </p>
          ) : null}
          <label className="grid gap-1">
            <span>
              Type <strong className="font-mono">{visible(schedule.name)}</strong> to confirm
            </span>
            <input
              className="input font-mono"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              data-testid="schedule-confirm-input"
              aria-label="Schedule name to confirm"
              autoComplete="off"
              disabled={!!m.data?.ok}
            />
            {err?.fields?.confirm ? <span className="text-xs text-red-600">{err.fields.confirm}</span> : null}
          </label>
          <ReasonField value={reason} onChange={setReason} required={danger} error={err?.fields?.reason} disabled={!!m.data?.ok} />
          {m.data?.ok ? (
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
          ) : null}
          {err && !err.fields?.confirm && !err.fields?.reason ? <ErrorBox code={err.code} message={err.message} /> : null}
          <div className="flex justify-end gap-2">
            <Button onClick={close} data-testid="confirm-cancel">
              {m.data?.ok ? 'Close' : 'Cancel'}
            </Button>
            {!m.data?.ok ? (
              <Button
                type="submit"
                variant={danger ? 'danger' : 'primary'}
                disabled={typed !== schedule.name || (danger && !reason.trim()) || m.isPending}
                data-testid="confirm-submit"
              >
                {m.isPending ? 'Working…' : LABEL[action]}
              </Button>
            ) : null}
          </div>
        </form>
      </Dialog>
    </>
  );
}
