'use client';
import { Button } from './button';

/** `total`: how many the list holds in all when the broker counts it (the state's count of an
 *  unfiltered list); absent or null when unknown or filtered, then only what is shown. */
export function LoadMore({
  hasMore,
  loading,
  onClick,
  shown,
  total,
}: {
  hasMore: boolean;
  loading: boolean;
  onClick: () => void;
  shown: number;
  total?: string | null;
}) {
  return (
    <div className="flex items-center justify-between px-4 py-3 text-xs text-zinc-500 dark:text-zinc-400">
      <span data-testid="shown-count">
        {shown.toLocaleString('en-US')} shown{total ? <span data-testid="list-total"> of {total}</span> : null}
      </span>
      {hasMore ? (
        <Button size="sm" onClick={onClick} disabled={loading} data-testid="load-more">
          {loading ? 'Loading…' : 'Load more'}
        </Button>
      ) : (
        <span>End of list</span>
      )}
    </div>
  );
}
