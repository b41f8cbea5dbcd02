// The queue page's tabs: the states the broker's adapter declares, in its order, then its dead
// letters. No state names here: they are the adapter's.
import { DEAD, listingOf, type Capabilities, type StateDecl, type StateRole } from '@/lib/brokers/schema';

/** One tab: a declared state of the broker, or its dead letters (`dead`). */
export interface QueueTab {
  key: string;
  label: string;
  /** The role its state plays (`StateDecl.role`), where it plays one. */
  role?: StateRole;
}

export const queueTabs = (states: StateDecl[]): QueueTab[] => [
  ...states.map((s) => ({ key: s.key, label: s.label, ...(s.role ? { role: s.role } : {}) })),
  { key: 'dead', label: 'Dead' },
];

/** The tab a `?state=` asks for; when it names none of them, the waiting work's (the state that
 *  plays `waiting`, as a list request without a state shows), else the first. */
export const pickTab = (tabs: QueueTab[], asked: string | undefined): string =>
  (tabs.find((t) => t.key === asked) ?? tabs.find((t) => t.role === 'waiting') ?? tabs[0]!).key;

/** Why a tab's list can't be shown on this broker (its listing capability, `browseDead` for the
 *  dead letters), or null when it can or the capabilities are not known yet. */
export function tabOff(caps: Capabilities | undefined, key: string): string | null {
  if (!caps) return null;
  const cap = key === DEAD ? caps.browseDead : listingOf(caps, key);
  return cap.on ? null : (cap.why ?? 'not available on this broker');
}
