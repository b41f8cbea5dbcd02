import type { Metadata } from 'next';
import { segment } from './params';

// Tab titles that name the page and the broker (from the URL only: nothing is read, nothing
// leaks to a signed-out visitor). The root layout appends "· potatoq console".

type P = Promise<Record<string, string>>;

/** A long id cut to its first 8 characters for a tab title. */
export const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/** `what` may use the route's decoded params, e.g. `(p) => \`Queue ${p.queue}\``. */
export function brokerTitle(what: string | ((p: Record<string, string>) => string)) {
  return async ({ params }: { params: P }): Promise<Metadata> => {
    const raw = await params;
    const p = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, segment(v)]));
    const label = typeof what === 'string' ? what : what(p);
    return { title: `${label} · ${p.brokerId ?? ''}` };
  };
}
