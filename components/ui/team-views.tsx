'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { ApiError, brokerPath, getJson, postJson } from '@/lib/client/api';
import type { TeamView } from '@/lib/views/schema';
import { TeamViewEditor } from './team-view-edit';

// Team saved views: kept in the console's state store for everyone (GET/POST
// /api/brokers/{broker}/views). Anyone signed in sees them; operators save and remove them.

const key = (brokerId: string) => ['broker', brokerId, 'views'] as const;

/** The broker's team views (every list's), read once for the list and the open view's words. */
export const useTeamViews = (brokerId: string | null) =>
  useQuery({
    queryKey: key(brokerId ?? ''),
    queryFn: ({ signal }) => getJson<{ views: TeamView[] }>(brokerPath(brokerId ?? '', '/views'), signal),
    enabled: brokerId !== null,
  });

/** The broker a list page belongs to (`/brokers/<id>/...`), or null. */
export function brokerOfPath(pathname: string): string | null {
  const seg = /^\/brokers\/([^/]+)\//.exec(pathname)?.[1];
  if (!seg) return null;
  try {
    return decodeURIComponent(seg);
  } catch {
    return null;
  }
}

/** What to show under a field when a save or removal was refused: the field's own words first. */
export function problemOf(e: unknown): { text: string; clash: boolean } {
  if (e instanceof ApiError) {
    const text = e.fields?.name ?? e.fields?.href ?? (e.fields?.description ? `description: ${e.fields.description}` : e.message);
    return { text, clash: e.code === 'InvalidInput' && /already exists/.test(e.fields?.name ?? '') };
  }
  return { text: e instanceof Error ? e.message : String(e), clash: false };
}

export function useSaveTeamView(brokerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; href: string; description?: string; replace?: boolean }) => postJson(brokerPath(brokerId, '/views'), v),
    onSuccess: () => qc.invalidateQueries({ queryKey: key(brokerId) }),
  });
}

/** This list's team views, each a link, with "edit" and "remove" (refused by the server for viewers, said here). */
export function TeamViewList({ brokerId, pathname }: { brokerId: string; pathname: string }) {
  const qc = useQueryClient();
  const q = useTeamViews(brokerId);
  const remove = useMutation({
    mutationFn: (name: string) => postJson(brokerPath(brokerId, '/views/remove'), { name }),
    onSettled: () => qc.invalidateQueries({ queryKey: key(brokerId) }),
  });
  const views = (q.data?.views ?? []).filter((v) => v.href.split('?')[0] === pathname);
  const [editing, setEditing] = useState<TeamView | null>(null);
  const muted = 'text-zinc-500 dark:text-zinc-400';
  return (
    <>
      <span className={muted}>Team views:</span>
      {q.error ? <span className="text-red-600">cannot be read: {problemOf(q.error).text}</span> : null}
      {q.data && views.length === 0 ? <span className={muted}>none for this list</span> : null}
      {views.map((v) => (
        <span key={v.name} className="inline-flex items-center rounded bg-sky-50 dark:bg-sky-950" data-testid="team-view">
          <Link
            href={v.href}
            className="link px-1.5 py-0.5"
            data-testid="team-view-link"
            title={`${v.description ? `${v.description} · ` : ''}saved by ${v.createdBy}${v.updatedBy ? `, last edited by ${v.updatedBy}` : ''}`}
          >
            {v.name}
          </Link>
          <button
            type="button"
            className="px-1 text-zinc-500 hover:text-sky-700"
            aria-label={`Edit team view ${v.name}`}
            data-testid="team-view-edit"
            onClick={() => setEditing(v)}
          >
            ✎
          </button>
          <button
            type="button"
            className="px-1 text-zinc-500 hover:text-red-600"
            aria-label={`Remove team view ${v.name}`}
            data-testid="team-view-remove"
            disabled={remove.isPending}
            onClick={() => remove.mutate(v.name)}
          >
            ×
          </button>
        </span>
      ))}
      {editing ? <TeamViewEditor key={editing.name} brokerId={brokerId} view={editing} onDone={() => setEditing(null)} /> : null}
      {remove.error ? (
        <span className="text-red-600" data-testid="team-view-problem">
          {problemOf(remove.error).text}
        </span>
      ) : null}
    </>
  );
}
