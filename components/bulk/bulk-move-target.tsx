'use client';
import { useState } from 'react';
import { MoveTargetSelect, RefusedTargets, useMoveTargets, type MoveFrom } from '@/components/actions/move-action';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';

/** A bulk move's first step: where the letters (or waiting tasks, `from`) go (only brokers the
 *  server pairs with this one, none preselected), before the snapshot is taken. */
export function BulkMoveTarget({
  brokerId,
  from = 'dead',
  whats = 'letters',
  onPick,
}: {
  brokerId: string;
  from?: MoveFrom;
  whats?: string;
  onPick: (to: string, does: string) => void;
}) {
  const { targets, offered, refused } = useMoveTargets(brokerId, true, from);
  const [to, setTo] = useState('');
  const chosen = offered.find((t) => t.id === to);
  return (
    <div className="grid gap-3" data-testid="bulk-move-target">
      {targets.isPending ? <p>Asking the other brokers…</p> : null}
      {targets.error ? <ErrorBox code="Error" message={targets.error.message} /> : null}
      {targets.data && !offered.length ? <p data-testid="move-none">No configured broker can take these {whats}.</p> : null}
      {offered.length ? (
        <div className="flex items-end gap-2">
          <MoveTargetSelect offered={offered} value={chosen?.id ?? ''} onChange={setTo} />
          <Button
            size="sm"
            data-testid="bulk-move-pick"
            disabled={!chosen}
            title={chosen ? undefined : 'Choose the broker to move to first'}
            onClick={() => chosen && onPick(chosen.id, chosen.pairing.on ? chosen.pairing.does : '')}
          >
            Count the matching {whats}
          </Button>
        </div>
      ) : null}
      <RefusedTargets refused={refused} />
    </div>
  );
}
