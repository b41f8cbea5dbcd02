'use client';
import type { SavedView } from '@/lib/client/saved-views';
import { useTeamViews } from './team-views';

/**
 * The view this page is, when its link is exactly a saved view's (this browser's first, then the
 * team's), with what the view is for: opening "billing failures" says why it was saved. Plain
 * text only: a description never becomes markup or a link.
 */
export function OpenView({ brokerId, href, own }: { brokerId: string | null; href: string; own: readonly SavedView[] }) {
  const team = useTeamViews(brokerId).data?.views ?? [];
  const mine = own.find((v) => v.href === href);
  const theirs = team.find((v) => v.href === href);
  const open = mine ? { name: mine.name, description: mine.description ?? '', whose: 'your view' } : null;
  const seen = open ?? (theirs ? { name: theirs.name, description: theirs.description, whose: 'team view' } : null);
  if (!seen) return null;
  return (
    <p className="basis-full text-zinc-600 dark:text-zinc-300" data-testid="saved-view-open">
      Showing {seen.whose} <span className="font-medium">{seen.name}</span>
      {seen.description ? (
        <>
          : <span data-testid="saved-view-open-description">{seen.description}</span>
        </>
      ) : null}
    </p>
  );
}
