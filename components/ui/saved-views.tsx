'use client';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState, useSyncExternalStore } from 'react';
import { OpenView } from './open-view';
import { TeamViewList, brokerOfPath, problemOf, useSaveTeamView } from './team-views';
import { MAX_VIEW_DESCRIPTION } from '@/lib/views/schema';
import {
  MAX_NAME,
  VIEWS_KEY,
  descriptionProblem,
  nameProblem,
  readViews,
  removeView,
  saveView,
  writeViews,
  type SavedView,
} from '@/lib/client/saved-views';

const CHANGED = 'potatoq-console:views';
const NONE: SavedView[] = [];
let cache: { raw: string | null; list: SavedView[] } = { raw: null, list: NONE };

function snapshot(): SavedView[] {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(VIEWS_KEY);
  } catch {
    return NONE;
  }
  if (raw !== cache.raw) cache = { raw, list: readViews({ getItem: () => raw }) };
  return cache.list;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

function store(list: SavedView[]): boolean {
  const ok = writeViews(window.localStorage, list);
  window.dispatchEvent(new Event(CHANGED));
  return ok;
}

/**
 * This list's saved views and "Save view": the filter is the page's URL, so a saved view is that
 * link under a name, kept in this browser ("for me") or in the console for everyone ("for the
 * team", operators only), and the link itself shares it with anyone.
 */
export function SavedViews() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const href = search ? `${pathname}?${search}` : pathname;
  const views = useSyncExternalStore(subscribe, snapshot, () => NONE).filter((v) => v.href.split('?')[0] === pathname);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [scope, setScope] = useState<'me' | 'team'>('me');
  const [problem, setProblem] = useState<{ text: string; clash: boolean } | null>(null);
  const brokerId = brokerOfPath(pathname);
  const team = useSaveTeamView(brokerId ?? '');
  const done = () => {
    setNaming(false);
    setName('');
    setDescription('');
    setProblem(null);
  };
  const save = (replace = false) => {
    const why = nameProblem(name);
    if (why) return setProblem({ text: why, clash: false });
    const text = descriptionProblem(description);
    if (text) return setProblem({ text: `description: ${text}`, clash: false });
    const about = description.trim() || undefined;
    if (scope === 'team')
      return team.mutate(
        { name: name.trim(), href, description: about, replace },
        { onSuccess: done, onError: (e) => setProblem(problemOf(e)) },
      );
    if (!store(saveView(snapshot(), name, href, Date.now(), about)))
      return setProblem({ text: 'this browser refused to store it', clash: false });
    done();
  };
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-xs" data-testid="saved-views">
      <span className="text-zinc-500 dark:text-zinc-400">My views:</span>
      {views.length === 0 ? <span className="text-zinc-500 dark:text-zinc-400">none saved for this list</span> : null}
      {views.map((v) => (
        <span key={v.name} className="inline-flex items-center rounded bg-zinc-100 dark:bg-zinc-800" data-testid="saved-view">
          <Link href={v.href} className="link px-1.5 py-0.5" data-testid="saved-view-link" title={v.description}>
            {v.name}
          </Link>
          <button
            type="button"
            className="px-1 text-zinc-500 hover:text-red-600"
            aria-label={`Forget view ${v.name}`}
            data-testid="saved-view-remove"
            onClick={() => store(removeView(snapshot(), v.name))}
          >
            ×
          </button>
        </span>
      ))}
      {brokerId ? <TeamViewList brokerId={brokerId} pathname={pathname} /> : null}
      <OpenView brokerId={brokerId} href={href} own={views} />
      {naming ? (
        <form
          className="inline-flex items-center gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <input
            className="input w-40 py-0.5 text-xs"
            value={name}
            maxLength={MAX_NAME + 1}
            onChange={(e) => setName(e.target.value)}
            aria-label="Name of the view"
            data-testid="saved-view-name"
            autoFocus
          />
          <input
            className="input w-56 py-0.5 text-xs"
            value={description}
            maxLength={MAX_VIEW_DESCRIPTION + 1}
            onChange={(e) => setDescription(e.target.value)}
            aria-label="What the view is for (optional)"
            placeholder="what it is for (optional)"
            data-testid="saved-view-description"
          />
          {brokerId ? (
            <select
              className="input py-0.5 text-xs"
              value={scope}
              onChange={(e) => setScope(e.target.value === 'team' ? 'team' : 'me')}
              aria-label="Who sees the view"
              data-testid="saved-view-scope"
            >
              <option value="me">for me (this browser)</option>
              <option value="team">for the team</option>
            </select>
          ) : null}
          <button type="submit" className="link" data-testid="saved-view-save" disabled={team.isPending}>
            Save
          </button>
          <button type="button" className="link" onClick={() => (setNaming(false), setProblem(null))}>
            Cancel
          </button>
          {problem ? (
            <span className="text-red-600" data-testid="saved-view-problem">
              {problem.text}
            </span>
          ) : null}
          {problem?.clash ? (
            <button type="button" className="link" data-testid="saved-view-replace" onClick={() => save(true)}>
              Replace it
            </button>
          ) : null}
        </form>
      ) : (
        <button type="button" className="link" data-testid="saved-view-new" onClick={() => setNaming(true)}>
          Save this view
        </button>
      )}
    </div>
  );
}
