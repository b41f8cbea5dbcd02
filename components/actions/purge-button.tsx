'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CommandLine } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { ReasonField } from '@/components/audit/reason-field';
import { ErrorBox } from '@/components/ui/states';
import { purgeAction } from '@/lib/actions/broker-actions';
import { fillCommand } from '@/lib/client/cli';
import { TOKEN_PLACEHOLDER, curlCommand } from '@/lib/client/curl';
import { useOverview } from '@/lib/client/hooks';
import { purgeText } from './purge-text';
import { useBrokerAction } from './use-broker-action';

/** Purge requires typing the queue name; it removes what the adapter declares (waiting tasks; RabbitMQ: ready messages). */
export function PurgeButton({ brokerId, queue, disabledReason }: { brokerId: string; queue: string; disabledReason?: string }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState('');
  const m = useBrokerAction(brokerId, (confirm: string) => purgeAction(brokerId, queue, confirm, reason.trim() || undefined));
  const close = () => {
    setOpen(false);
    setTyped('');
    setReason('');
    m.reset();
  };
  const o = useOverview(brokerId);
  const t = purgeText(
    o.data?.model?.actions.purge,
    o.data?.queues.find((q) => q.name === queue),
  );
  const cli = fillCommand(o.data?.model?.actions.purge.cli, { queue });
  const curl = open ? curlCommand({ origin: window.location.origin, brokerId, action: 'purge', queue, reason, reasonRequired: true }) : '';
  const fieldError = m.data && !m.data.ok ? m.data.error.fields?.confirm : undefined;
  const reasonError = m.data && !m.data.ok ? m.data.error.fields?.reason : undefined;
  return (
    <>
      <Button
        variant="danger"
        size="sm"
        disabled={!!disabledReason}
        title={disabledReason}
        data-testid="action-purge"
        onClick={() => setOpen(true)}
      >
        Purge queue
      </Button>
      <Dialog open={open} onClose={close} title={`Purge queue ${queue}?`} testId="purge-dialog">
        <form
          className="grid gap-3 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            m.mutate(typed);
          }}
        >
          <p data-testid="confirm-summary">
            Delete <strong>{t.what}</strong> in queue <strong>{queue}</strong> on broker <strong>{brokerId}</strong>
            {t.count ? (
              <>
                : <strong data-testid="purge-count">{t.count}</strong>
              </>
            ) : null}
            . {t.stays}
          </p>
          {cli ? <CommandLine command={cli} caption="The same with the broker's CLI" copyLabel="Copy as CLI" /> : null}
          <CommandLine
            command={curl}
            testId="curl-command"
            caption={`The same through the console's API (an API token in ${TOKEN_PLACEHOLDER})`}
            copyLabel="Copy as curl"
          />
          <label className="grid gap-1">
            <span>
              Type <strong className="font-mono">{queue}</strong> to confirm
            </span>
            <input
              className="input font-mono"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              data-testid="purge-confirm-input"
              aria-label="Queue name to confirm"
              autoComplete="off"
              disabled={!!m.data?.ok}
            />
            {fieldError ? <span className="text-xs text-red-600">{fieldError}</span> : null}
          </label>
          <ReasonField value={reason} onChange={setReason} required error={reasonError} disabled={!!m.data?.ok} />
          {m.data?.ok ? (
            <p role="status" data-testid="action-outcome" className="font-semibold text-emerald-700 dark:text-emerald-400">
              Removed {m.data.data.removed} waiting task{m.data.data.removed === 1 ? '' : 's'} from {queue}.
            </p>
          ) : null}
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
                disabled={typed !== queue || !reason.trim() || m.isPending}
                data-testid="confirm-submit"
              >
                {m.isPending ? 'Purging…' : 'Purge'}
              </Button>
            ) : null}
          </div>
        </form>
      </Dialog>
    </>
  );
}
