'use client';
import Link from 'next/link';
import { useState } from 'react';
import { ReasonField } from '@/components/audit/reason-field';
import { Button } from '@/components/ui/button';
import { replayDeadAgainAction } from '@/lib/actions/campaign-actions';

/**
 * "Replay the ones that died again": says to how many and where before it runs, asks why, and
 * answers with the outcome and the new campaign (linked to this one).
 */
export function ReplayAgain({ id, broker, dead, word = 'died again' }: { id: string; broker: string; dead: number; word?: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; campaign?: string; error?: boolean } | null>(null);
  if (dead === 0) return null;
  const count = Math.min(dead, 1000).toLocaleString('en-US');
  const run = async () => {
    setBusy(true);
    const r = await replayDeadAgainAction(id, reason);
    setBusy(false);
    if (!r.ok) return setSaid({ text: `${r.error.code}: ${r.error.message}`, error: true });
    setOpen(false);
    const failed = r.data.failed.length;
    setSaid({
      text: `Replayed ${r.data.succeeded.length.toLocaleString('en-US')} of ${r.data.requested.toLocaleString('en-US')}${failed ? `; ${failed} refused` : ''}.`,
      campaign: r.data.campaign,
    });
  };
  return (
    <div className="grid gap-2" data-testid="replay-again">
      {open ? (
        <div className="grid gap-2 rounded border border-zinc-300 p-3 dark:border-zinc-700">
          <p>
            Replays the {count} tasks of this campaign that {word} on {broker}
            {dead > 1000 ? ' (the first 1,000; run it again for the rest)' : ''}, as a new campaign linked to this one.
          </p>
          <ReasonField value={reason} onChange={setReason} required disabled={busy} />
          <div className="flex gap-2">
            <Button variant="primary" onClick={() => void run()} disabled={busy} data-testid="replay-again-confirm">
              Replay {count}
            </Button>
            <Button onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div>
          <Button onClick={() => setOpen(true)} data-testid="replay-again-open">
            Replay the {count} that {word}
          </Button>
        </div>
      )}
      {said ? (
        <p className={said.error ? 'text-red-700 dark:text-red-400' : ''} data-testid="replay-again-result">
          {said.text}{' '}
          {said.campaign ? (
            <Link className="link" href={`/campaigns/${encodeURIComponent(said.campaign)}`} data-testid="replay-again-campaign">
              Follow the new campaign
            </Link>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
