'use client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ReasonField } from '@/components/audit/reason-field';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorBox } from '@/components/ui/states';
import { moveDeadAction, moveWaitingAction } from '@/lib/actions/broker-actions';
import type { ActionResult } from '@/lib/brokers/schema';
import type { BrokerModel } from '@/lib/brokers/model';
import type { MoveTargetView } from '@/lib/brokers/move-pairing';
import { brokerPath, getJson } from '@/lib/client/api';
import { MovePreview } from '@/components/migration/move-preview';
import { MoveAnyway } from './move-anyway';
import { OutcomePanel } from './outcome-panel';
import { useBrokerAction } from './use-broker-action';

/**
 * "Move to broker…": dead letters enqueued on another broker whose system shares their call
 * model, then removed here; with `from="waiting"`, waiting tasks taken from their queue here and
 * created there through their call mapping (where this system declares `model.calls.waiting`). The picker offers only the brokers the server pairs with this one;
 * the others are listed with why not. Ids are frozen when the dialog opens. No target is
 * preselected: the operator chooses one, and the move is disabled until then.
 */
export function MoveAction({
  brokerId,
  ids,
  queue,
  disabledReason,
  onDone,
  size = 'sm',
  from = 'dead',
  onOpenChange,
}: {
  brokerId: string;
  ids: string[];
  queue?: string;
  disabledReason?: string;
  onDone?: (result: ActionResult) => void;
  size?: 'sm' | 'md';
  from?: MoveFrom;
  /** Told when the dialog opens or closes (a page can keep its outcome on screen meanwhile). */
  onOpenChange?: (open: boolean) => void;
}) {
  const [open, setOpenState] = useState(false);
  const setOpen = (v: boolean) => {
    setOpenState(v);
    onOpenChange?.(v);
  };
  const [frozen, setFrozen] = useState<string[]>([]);
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const { targets, offered, refused } = useMoveTargets(brokerId, open, from);
  const chosen = offered.find((t) => t.id === to);
  const m = useBrokerAction(
    brokerId,
    (list: string[]) =>
      (from === 'waiting' ? moveWaitingAction : moveDeadAction)(brokerId, chosen?.id ?? '', list, reason.trim() || undefined, queue),
    'moved',
  );
  const count = frozen.length;
  const noun = `${from === 'waiting' ? 'waiting task' : 'dead letter'}${count === 1 ? '' : 's'}`;
  const close = () => {
    setOpen(false);
    setTo('');
    setReason('');
    m.reset();
  };
  const reasonError = m.data && !m.data.ok ? m.data.error.fields?.reason : undefined;
  return (
    <>
      <Button
        size={size}
        disabled={ids.length === 0 || !!disabledReason}
        title={disabledReason}
        data-testid="action-move"
        onClick={() => {
          setFrozen(ids);
          setOpen(true);
        }}
      >
        Move to broker…{ids.length > 1 ? ` ${ids.length}` : ''}
      </Button>
      <Dialog open={open} onClose={close} title={`Move ${count} ${noun} to another broker?`} testId="move-dialog" brokerId={brokerId}>
        <div className="grid gap-3 text-sm">
          {targets.isPending ? <p>Asking the other brokers…</p> : null}
          {targets.error ? <ErrorBox code="Error" message={targets.error.message} /> : null}
          {targets.data && !offered.length ? (
            <p data-testid="move-none">No configured broker can take these {from === 'waiting' ? 'tasks' : 'letters'}.</p>
          ) : null}
          {offered.length ? <MoveTargetSelect offered={offered} value={chosen?.id ?? ''} onChange={setTo} disabled={!!m.data?.ok} /> : null}
          {chosen ? (
            <>
              <p data-testid="move-summary">
                Move <strong>{count}</strong> {noun} from broker <strong>{brokerId}</strong> to broker <strong>{chosen.id}</strong>
                {queue ? (
                  <>
                    {' '}
                    (from {queue.includes(', ') ? 'queues' : 'queue'} <strong>{queue}</strong>)
                  </>
                ) : null}
                :{' '}
                {from === 'waiting' && chosen.pairing.on && chosen.pairing.back
                  ? "each is taken from its queue here, converted through the call mapping whose target task is its name and enqueued there under its job's id."
                  : from === 'waiting'
                    ? "each is taken from its queue here (a task a worker got first stays with it), converted through its task's call mapping and created there under a key derived from its id."
                    : chosen.pairing.on && chosen.pairing.back
                      ? "each is converted through the call mapping whose target task is its name and enqueued there under its job's id, then marked moved here."
                      : chosen.pairing.on && chosen.pairing.mapped
                        ? "each is converted through its task's call mapping and created there under a key derived from its id, then removed here."
                        : 'each is enqueued there under its own id, then removed here.'}
              </p>
              {chosen.pairing.on ? <p className="text-zinc-600 dark:text-zinc-400">{chosen.pairing.does}</p> : null}
              {chosen.pairing.on && chosen.pairing.mapped && !m.data?.ok ? (
                <MovePreview brokerId={brokerId} to={chosen.id} ids={frozen} from={from} />
              ) : null}
            </>
          ) : null}
          {count <= 5 ? (
            <ul className="font-mono text-xs break-all">
              {frozen.map((id) => (
                <li key={id}>{id}</li>
              ))}
            </ul>
          ) : null}
          <RefusedTargets refused={refused} />
          <ReasonField value={reason} onChange={setReason} required error={reasonError} disabled={!!m.data?.ok} />
          {m.data?.ok ? <OutcomePanel result={m.data.data} /> : null}
          {m.data?.ok && chosen && from === 'dead' ? (
            <MoveAnyway brokerId={brokerId} to={chosen.id} result={m.data.data} reason={reason.trim()} queue={queue} />
          ) : null}
          {m.data && !m.data.ok && !reasonError ? <ErrorBox code={m.data.error.code} message={m.data.error.message} /> : null}
          {m.error ? <ErrorBox code="Error" message={m.error.message} /> : null}
          <div className="flex justify-end gap-2">
            <Button onClick={close} data-testid="move-cancel">
              {m.data?.ok ? 'Close' : 'Cancel'}
            </Button>
            {!m.data?.ok ? (
              <Button
                variant="primary"
                disabled={m.isPending || !chosen || !reason.trim()}
                title={chosen ? undefined : 'Choose the broker to move to first'}
                data-testid="move-submit"
                onClick={() => m.mutate(frozen, { onSuccess: (r) => (r.ok ? onDone?.(r.data) : undefined) })}
              >
                {m.isPending ? 'Working…' : `Move ${count} ${noun}${chosen ? ` to ${chosen.id}` : ''}`}
              </Button>
            ) : null}
          </div>
        </div>
      </Dialog>
    </>
  );
}

/** What moves: dead letters, or waiting tasks (not yet run). */
export type MoveFrom = 'dead' | 'waiting';

/** Whether this system's waiting tasks can be moved, as its adapter declares (`model.calls.waiting`):
 *  null when it does not say (no button), else the reason it is off ('' when on). */
export function waitingMoveOff(model: BrokerModel | undefined): string | null {
  const w = model?.calls?.waiting;
  if (!w) return null;
  return 'why' in w ? `waiting tasks cannot move from here: ${w.why}` : '';
}

/** The other brokers and whether this broker's letters (or waiting tasks) can move there (asked when `enabled`). */
export function useMoveTargets(brokerId: string, enabled: boolean, from: MoveFrom = 'dead') {
  const targets = useQuery({
    queryKey: ['broker', brokerId, 'move-targets', from],
    queryFn: ({ signal }) =>
      getJson<MoveTargetView[]>(brokerPath(brokerId, from === 'waiting' ? '/move-targets?from=waiting' : '/move-targets'), signal),
    enabled,
  });
  const all = targets.data ?? [];
  return { targets, offered: all.filter((t) => t.pairing.on), refused: all.filter((t) => !t.pairing.on) };
}

/** The target picker: only the brokers the server pairs with this one, none chosen until the
 *  operator picks one (`value` '' shows the prompt). */
export function MoveTargetSelect({
  offered,
  value,
  onChange,
  disabled,
}: {
  offered: MoveTargetView[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
}) {
  return (
    <label className="grid gap-1">
      <span className="font-medium">Move to</span>
      <select
        className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        data-testid="move-target"
      >
        <option value="" disabled>
          Choose a broker…
        </option>
        {offered.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name} ({t.id})
          </option>
        ))}
      </select>
    </label>
  );
}

/** The brokers not offered, each with why (in words, as text). */
export function RefusedTargets({ refused }: { refused: MoveTargetView[] }) {
  if (!refused.length) return null;
  return (
    <details data-testid="move-refused">
      <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">Not offered ({refused.length})</summary>
      <ul className="mt-1 list-disc pl-5">
        {refused.map((t) => (
          <li key={t.id}>
            <strong>{t.name}</strong>: {t.pairing.on ? '' : t.pairing.why}
          </li>
        ))}
      </ul>
    </details>
  );
}
