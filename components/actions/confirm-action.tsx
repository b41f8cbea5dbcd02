'use client';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { CommandLine } from '@/components/ui/copy-button';
import { convertAction, discardDeadAction, replayDeadAction, revokeAction } from '@/lib/actions/broker-actions';
import type { ActionResult } from '@/lib/brokers/schema';
import { fillCommand } from '@/lib/client/cli';
import { TOKEN_PLACEHOLDER, curlCommand } from '@/lib/client/curl';
import { useOverview } from '@/lib/client/hooks';
import { revokeWords, taskNoun, taskWords } from '@/components/jobs/task-words';
import { ConfirmDialog } from './confirm-dialog';
import { confirmState } from './confirm-state';
import { OutcomePanel } from './outcome-panel';
import { useBrokerAction } from './use-broker-action';

export type BulkKind = 'replay' | 'discard' | 'revoke' | 'convert';

const RUN = { replay: replayDeadAction, discard: discardDeadAction, revoke: revokeAction, convert: convertAction } as const;

// What each action does on this broker is the adapter's sentence (overview.model.actions); a
// revoke's verb and noun are the system's (SDJ and QueueFlow cancel jobs).
const TEXT: Record<BulkKind, { verb: string; what: string; danger: boolean }> = {
  replay: { verb: 'Replay', what: 'dead letter', danger: false },
  discard: { verb: 'Discard', what: 'dead letter', danger: true },
  revoke: { verb: 'Revoke', what: 'task', danger: true },
  convert: { verb: 'Convert and replay', what: 'foreign letter', danger: false },
};

/** A button that opens a confirmation stating action, count, broker and queue, then shows per-id outcomes. */
export function ConfirmAction({
  kind,
  brokerId,
  queue,
  ids,
  disabledReason,
  onDone,
  size = 'sm',
  details,
  onOpenChange,
}: {
  kind: BulkKind;
  brokerId: string;
  queue?: string;
  ids: string[];
  disabledReason?: string;
  onDone?: (result: ActionResult) => void;
  size?: 'sm' | 'md';
  /** Shown in the dialog above the reason, e.g. the message a conversion will send. */
  details?: ReactNode;
  /** Told when the dialog opens and closes (a page may wait for it before re-rendering). */
  onOpenChange?: (open: boolean) => void;
}) {
  const [open, setOpenState] = useState(false);
  const setOpen = (v: boolean) => {
    setOpenState(v);
    onOpenChange?.(v);
  };
  // Ids and queue are frozen when the dialog opens: the list may change under it while it is open.
  const [frozen, setFrozen] = useState<string[]>([]);
  const [frozenQueue, setFrozenQueue] = useState<string | undefined>(undefined);
  const [reason, setReason] = useState('');
  const model = useOverview(brokerId).data?.model;
  const declared = model?.actions;
  const tw = taskWords(model);
  const t = {
    ...TEXT[kind],
    ...(kind === 'convert' && declared?.convert ? { what: declared.convert.what } : {}),
    ...(kind === 'revoke' ? { verb: revokeWords(model).verb, what: tw.noun } : {}),
  };
  const explain = declared?.[kind]?.does;
  const past = kind === 'convert' ? 'converted and replayed' : kind === 'revoke' ? revokeWords(model).past : undefined;
  const m = useBrokerAction(brokerId, (list: string[]) => RUN[kind](brokerId, list, reason.trim() || undefined, frozenQueue), past);
  const count = frozen.length;
  const noun = kind === 'revoke' ? taskNoun(tw, count) : `${t.what}${count === 1 ? '' : 's'}`;
  const cli = fillCommand(declared?.[kind]?.cli, { ids: frozen });
  // Rendered only once the dialog is open (after a click): window exists then.
  const curl = open
    ? curlCommand({
        origin: window.location.origin,
        brokerId,
        action: kind,
        ids: frozen,
        queue: frozenQueue,
        reason,
        reasonRequired: t.danger,
      })
    : '';
  const close = () => {
    setOpen(false);
    setReason('');
    m.reset();
  };
  const st = confirmState(m);
  return (
    <>
      <Button
        size={size}
        variant={t.danger ? 'danger' : 'primary'}
        disabled={ids.length === 0 || !!disabledReason}
        title={disabledReason}
        data-testid={`action-${kind}`}
        onClick={() => {
          setFrozen(ids);
          setFrozenQueue(queue);
          setOpen(true);
        }}
      >
        {t.verb}
        {ids.length > 1 ? ` ${ids.length}` : ''}
      </Button>
      <ConfirmDialog
        open={open}
        onClose={close}
        brokerId={brokerId}
        title={`${t.verb} ${count} ${noun}?`}
        testId="confirm-dialog"
        danger={t.danger}
        reason={{ value: reason, onChange: setReason, required: t.danger, error: st.reasonError }}
        submitLabel={`${t.verb} ${count} ${noun}`}
        pendingLabel="Working…"
        pending={st.pending}
        onSubmit={() =>
          m.mutate(frozen, {
            onSuccess: (r) => {
              if (r.ok) onDone?.(r.data);
            },
          })
        }
        done={st.done}
        error={st.error}
        outcome={m.data?.ok ? <OutcomePanel result={m.data.data} past={kind === 'revoke' ? past : undefined} /> : null}
      >
        <p data-testid="confirm-summary">
          {t.verb} <strong>{count}</strong> {noun} on broker <strong>{brokerId}</strong>
          {frozenQueue ? (
            <>
              {' '}
              in {frozenQueue.includes(', ') ? 'queues' : 'queue'} <strong>{frozenQueue}</strong>
            </>
          ) : null}
          .
        </p>
        {explain ? <p className="text-zinc-600 dark:text-zinc-400">{explain}</p> : null}
        {count <= 5 ? (
          <ul className="font-mono text-xs break-all">
            {frozen.map((id) => (
              <li key={id}>{id}</li>
            ))}
          </ul>
        ) : null}
        {details}
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
