'use client';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { setQueuePausedAction } from '@/lib/actions/broker-actions';
import { useOverview } from '@/lib/client/hooks';
import { useBrokerAction } from './use-broker-action';

/** Pause or resume a queue where the broker's system declares a pause (`model.actions.pause`);
 *  nothing where it has none. Reversible, so no confirmation dialog; the server gates it. */
export function PauseButton({ brokerId, queue }: { brokerId: string; queue: string }) {
  const o = useOverview(brokerId);
  const m = useBrokerAction(brokerId, (paused: boolean) => setQueuePausedAction(brokerId, queue, paused));
  const decl = o.data?.model?.actions.pause;
  if (!decl) return null;
  const cap = o.data?.capabilities.pause;
  const paused = o.data?.queues.find((q) => q.name === queue)?.paused === true;
  const off = cap && !cap.on ? (cap.why ?? 'pause is not available on this broker') : undefined;
  return (
    <span className="inline-flex items-center gap-2">
      {paused ? (
        <Badge tone="neutral" testId="queue-paused-badge">
          paused
        </Badge>
      ) : null}
      <Button
        size="sm"
        disabled={!!off || m.isPending}
        title={off ?? (paused ? decl.resume : decl.does)}
        data-testid="action-pause"
        onClick={() => m.mutate(!paused)}
      >
        {paused ? 'Resume queue' : 'Pause queue'}
      </Button>
    </span>
  );
}
