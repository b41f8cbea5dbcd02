'use client';
import { useState } from 'react';
import { PayloadView } from '@/components/jobs/payload-view';
import { RawView } from '@/components/jobs/raw-view';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';
import type { ActionResponse } from '@/lib/actions/response';
import { revealArgsAction } from '@/lib/actions/reveal-action';
import type { DeadDetail, TaskDecl, TaskDetail } from '@/lib/brokers/schema';

/** Argument values are hidden on this console; an operator may reveal one task's (audited). */
export function RevealPanel({
  brokerId,
  kind,
  id,
  shape,
}: {
  brokerId: string;
  kind: 'task' | 'dead';
  id: string;
  /** How the system shapes and names the arguments (`TaskDecl.payload`). */
  shape?: TaskDecl['payload'];
}) {
  const [state, setState] = useState<ActionResponse<TaskDetail | DeadDetail> | null>(null);
  const [busy, setBusy] = useState(false);
  if (state?.ok) {
    return (
      <div className="grid gap-3" data-testid="revealed">
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Revealed for you; the reveal is in the audit trail.</p>
        <PayloadView payload={state.data.payload} shape={shape} />
        <RawView raw={state.data.raw} size={state.data.rawSize} truncated={state.data.rawTruncated} testId="revealed-raw" />
      </div>
    );
  }
  return (
    <div className="grid gap-2 text-sm">
      <p className="text-zinc-600 dark:text-zinc-400">
        Argument values are hidden on this console. Operators can reveal them; each reveal is audited.
      </p>
      <div>
        <Button
          size="sm"
          disabled={busy}
          data-testid="reveal-args"
          onClick={async () => {
            setBusy(true);
            setState(await revealArgsAction(brokerId, kind, id));
            setBusy(false);
          }}
        >
          Reveal arguments
        </Button>
      </div>
      {state && !state.ok ? <ErrorBox code={state.error.code} message={state.error.message} /> : null}
    </div>
  );
}
