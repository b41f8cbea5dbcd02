'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';
import { moveDeadAction } from '@/lib/actions/broker-actions';
import type { ActionResult } from '@/lib/brokers/schema';
import { OutcomePanel } from './outcome-panel';
import { useBrokerAction } from './use-broker-action';

/**
 * After a move that refused some letters because an earlier move of them did not finish (the
 * task may already have run on the target: `forcible` outcomes), the operator may move those
 * anyway, once they checked the target: an explicit confirmation, then the same gated action
 * with `force`, audited as such on both brokers. Nothing here decides; the server re-checks.
 */
export function MoveAnyway({
  brokerId,
  to,
  result,
  reason,
  queue,
}: {
  brokerId: string;
  to: string;
  result: ActionResult;
  reason: string;
  queue?: string;
}) {
  const ids = result.failed.filter((f) => f.forcible).map((f) => f.id);
  const [checked, setChecked] = useState(false);
  const m = useBrokerAction(brokerId, (list: string[]) => moveDeadAction(brokerId, to, list, reason || undefined, queue, true), 'moved');
  if (!ids.length) return null;
  const noun = ids.length === 1 ? 'this letter' : `these ${ids.length} letters`;
  return (
    <div className="grid gap-2 rounded-md border border-amber-300 p-3 dark:border-amber-800" data-testid="move-anyway">
      <p>
        An earlier move of {noun} did not finish, and <strong>{to}</strong> cannot tell whether the task already ran there. Nothing was
        sent. Check <strong>{to}</strong> first (the task&apos;s effects, its worker logs): if it ran, discard the letter here instead.
      </p>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => setChecked(e.target.checked)}
          disabled={!!m.data?.ok}
          data-testid="move-anyway-confirm"
        />
        <span>
          I checked {to}: the task did not run there. Moving {noun} anyway runs it there, a second time if it did run.
        </span>
      </label>
      {m.data?.ok ? <OutcomePanel result={m.data.data} /> : null}
      {m.data && !m.data.ok ? <ErrorBox code={m.data.error.code} message={m.data.error.message} /> : null}
      {m.error ? <ErrorBox code="Error" message={m.error.message} /> : null}
      {!m.data?.ok ? (
        <div className="flex justify-end">
          <Button variant="danger" disabled={!checked || m.isPending} data-testid="move-anyway-submit" onClick={() => m.mutate(ids)}>
            {m.isPending ? 'Working…' : `Move ${ids.length} anyway to ${to}`}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
