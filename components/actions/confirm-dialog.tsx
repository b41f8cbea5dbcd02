'use client';
import { useState, type ReactNode } from 'react';
import { ReasonField } from '@/components/audit/reason-field';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorBox } from '@/components/ui/states';
import { useEnvironment } from '@/lib/client/environment';
import { confirmPhrase } from '@/lib/environment/name';
import { visible } from '@/lib/text/visible';

/** The name the operator types again before a destructive action (a queue, a workflow's id). */
export interface TypedConfirm {
  name: string;
  /** The field's accessible name, e.g. "Queue name to confirm". */
  label: string;
  testId: string;
  /** The server's word on the typed name, when it refused it. */
  error?: string;
}

export interface ConfirmDialogProps {
  open: boolean;
  onClose: () => void;
  brokerId: string;
  title: string;
  testId: string;
  danger: boolean;
  /** What the action does, to how many and where (the dialog's body above the fields). */
  children: ReactNode;
  /** Asks for the target's name typed again, prefixed by the broker's environment where one is
   *  configured ("production/emails"); `onSubmit` receives the bare name the server checks. */
  typed?: TypedConfirm;
  reason: { value: string; onChange: (v: string) => void; required: boolean; error?: string };
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onSubmit: (confirm: string) => void;
  /** The action ran: the outcome shows, the fields lock and Cancel becomes Close. */
  done: boolean;
  outcome?: ReactNode;
  /** A refusal not tied to a field. */
  error?: { code: string; message: string } | null;
}

/**
 * The one confirmation every action uses: the broker's environment under the title (the
 * dialog's), what will happen, the name typed to confirm where the action destroys, a reason
 * for the audit trail, the outcome. Mounted only while open, so the typed name starts empty.
 */
export function ConfirmDialog({ open, onClose, brokerId, title, testId, ...body }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title={title} testId={testId} brokerId={brokerId}>
      <ConfirmBody brokerId={brokerId} onClose={onClose} {...body} />
    </Dialog>
  );
}

function ConfirmBody({
  brokerId,
  onClose,
  danger,
  children,
  typed,
  reason,
  submitLabel,
  pendingLabel,
  pending,
  onSubmit,
  done,
  outcome,
  error,
}: Omit<ConfirmDialogProps, 'open' | 'title' | 'testId'>) {
  const environment = useEnvironment(brokerId);
  const [text, setText] = useState('');
  const phrase = typed ? confirmPhrase(environment, typed.name) : '';
  const typedOk = !typed || text.trim() === phrase;
  const ready = typedOk && (!reason.required || !!reason.value.trim()) && !pending;
  return (
    <form
      className="grid gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready && !done) onSubmit(typed?.name ?? '');
      }}
    >
      {children}
      {typed ? (
        <label className="grid gap-1">
          <span>
            Type <strong className="font-mono break-all">{visible(phrase)}</strong> to confirm
            {environment ? <span className="text-xs text-zinc-500 dark:text-zinc-400"> (the environment, a slash, the name)</span> : null}
          </span>
          <input
            className="input font-mono"
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid={typed.testId}
            aria-label={typed.label}
            autoComplete="off"
            spellCheck={false}
            disabled={done}
          />
          {typed.error ? <span className="text-xs text-red-600">{typed.error}</span> : null}
        </label>
      ) : null}
      <ReasonField value={reason.value} onChange={reason.onChange} required={reason.required} error={reason.error} disabled={done} />
      {done ? outcome : null}
      {error ? <ErrorBox code={error.code} message={error.message} /> : null}
      <div className="flex justify-end gap-2">
        <Button onClick={onClose} data-testid="confirm-cancel">
          {done ? 'Close' : 'Cancel'}
        </Button>
        {!done ? (
          <Button type="submit" variant={danger ? 'danger' : 'primary'} disabled={!ready} data-testid="confirm-submit">
            {pending ? pendingLabel : submitLabel}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
