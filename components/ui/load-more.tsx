'use client';
import { Button } from './button';

export function LoadMore({ hasMore, loading, onClick, shown }: { hasMore: boolean; loading: boolean; onClick: () => void; shown: number }) {
  return (
    <div className="flex items-center justify-between px-4 py-3 text-xs text-zinc-500 dark:text-zinc-400">
      <span data-testid="shown-count">{shown} shown</span>
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
