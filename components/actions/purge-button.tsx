'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CommandLine } from '@/components/ui/copy-button';
import { purgeAction } from '@/lib/actions/broker-actions';
import { fillCommand } from '@/lib/client/cli';
import { TOKEN_PLACEHOLDER, curlCommand } from '@/lib/client/curl';
import { useOverview } from '@/lib/client/hooks';
import { ConfirmDialog } from './confirm-dialog';
import { confirmState } from './confirm-state';
import { purgeText } from './purge-text';
import { useBrokerAction } from './use-broker-action';

/** Purge requires typing the queue name; it removes what the adapter declares (waiting tasks; RabbitMQ: ready messages). */
export function PurgeButton({ brokerId, queue, disabledReason }: { brokerId: string; queue: string; disabledReason?: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const m = useBrokerAction(brokerId, (confirm: string) => purgeAction(brokerId, queue, confirm, reason.trim() || undefined));
  const close = () => {
    setOpen(false);
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
  const s = confirmState(m);
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
      <ConfirmDialog
        open={open}
        onClose={close}
        brokerId={brokerId}
        title={`Purge queue ${queue}?`}
        testId="purge-dialog"
        danger
        typed={{ name: queue, label: 'Queue name to confirm', testId: 'purge-confirm-input', error: s.confirmError }}
        reason={{ value: reason, onChange: setReason, required: true, error: s.reasonError }}
        submitLabel="Purge"
        pendingLabel="Purging…"
        pending={s.pending}
        onSubmit={(confirm) => m.mutate(confirm)}
        done={s.done}
        error={s.error}
        outcome={
          m.data?.ok ? (
            <p role="status" data-testid="action-outcome" className="font-semibold text-emerald-700 dark:text-emerald-400">
              Removed {m.data.data.removed} waiting task{m.data.data.removed === 1 ? '' : 's'} from {queue}.
            </p>
          ) : null
        }
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
      </ConfirmDialog>
    </>
  );
}
