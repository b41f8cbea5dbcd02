// Saved views of one browser: a list page's filtered URL kept under a name. The filter already
// lives in the URL (a link shares it); a saved view is that link, named, kept in localStorage.
import { MAX_VIEW_DESCRIPTION, ZViewDescription } from '@/lib/views/schema';

export const VIEWS_KEY = 'potatoq-console.views';
export const MAX_VIEWS = 100;
export const MAX_NAME = 80;

export interface SavedView {
  name: string;
  /** The page's path and query ("/brokers/shop/dead?queue=emails"): always a console path. */
  href: string;
  at: number;
  /** What the view is for, as its saver wrote it (plain text, at most MAX_VIEW_DESCRIPTION). */
  description?: string;
}

/** Only the console's own list pages: a stored link never leaves the console or runs script. */
export const isConsolePath = (href: string): boolean => /^\/brokers\/[^/?#]+\/[^?#]*(\?[^#]*)?$/.test(href) && !href.includes('//');

function valid(v: unknown): v is SavedView {
  if (!v || typeof v !== 'object') return false;
  const x = v as Partial<SavedView>;
  const text = x.description === undefined || (typeof x.description === 'string' && x.description.length <= MAX_VIEW_DESCRIPTION);
  return typeof x.name === 'string' && typeof x.href === 'string' && typeof x.at === 'number' && text && isConsolePath(x.href);
}

/** Why a description cannot be saved, or null (the team view's rule, checked before sending). */
export function descriptionProblem(text: string): string | null {
  const r = ZViewDescription.safeParse(text);
  return r.success ? null : (r.error.issues[0]?.message ?? 'not a description');
}

export function readViews(storage: Pick<Storage, 'getItem'>): SavedView[] {
  try {
    const v: unknown = JSON.parse(storage.getItem(VIEWS_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter(valid).slice(0, MAX_VIEWS) : [];
  } catch {
    return [];
  }
}

/** Why a name cannot be saved, or null. */
export function nameProblem(name: string): string | null {
  const n = name.trim();
  if (!n) return 'give the view a name';
  if (n.length > MAX_NAME) return `at most ${MAX_NAME} characters`;
  return null;
}

/** Saves (or replaces, by name) a view; newest first, at most MAX_VIEWS kept. */
export function saveView(list: readonly SavedView[], name: string, href: string, now: number, description = ''): SavedView[] {
  const n = name.trim();
  const d = description.trim();
  if (nameProblem(n) || descriptionProblem(d) || !isConsolePath(href)) return [...list];
  return [{ name: n, href, at: now, ...(d ? { description: d } : {}) }, ...list.filter((v) => v.name !== n)].slice(0, MAX_VIEWS);
}

export const removeView = (list: readonly SavedView[], name: string): SavedView[] => list.filter((v) => v.name !== name);

export function writeViews(storage: Pick<Storage, 'setItem'>, list: readonly SavedView[]): boolean {
  try {
    storage.setItem(VIEWS_KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}
