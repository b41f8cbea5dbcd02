// "Since you last looked": the error fingerprints each broker had when this browser last showed
// the overview, kept in localStorage (per browser, not per user: nothing is stored on the server).

export const LOOKED_KEY = 'potatoq-console.overview-looked';
/** Fingerprints remembered per broker: a store with more groups than this remembers its first ones. */
const MAX_PER_BROKER = 2000;

export interface Looked {
  /** When the overview last showed them (ms since the epoch). */
  at: number;
  fingerprints: Record<string, string[]>;
}

function isLooked(v: unknown): v is Looked {
  if (!v || typeof v !== 'object') return false;
  const x = v as { at?: unknown; fingerprints?: unknown };
  if (typeof x.at !== 'number' || !x.fingerprints || typeof x.fingerprints !== 'object') return false;
  return Object.values(x.fingerprints).every((l) => Array.isArray(l) && l.every((f) => typeof f === 'string'));
}

/** The last look, or null when this browser never looked (or its record is unreadable). */
export function readLooked(storage: Pick<Storage, 'getItem'>): Looked | null {
  try {
    const raw = storage.getItem(LOOKED_KEY);
    const v: unknown = raw ? JSON.parse(raw) : null;
    return isLooked(v) ? v : null;
  } catch {
    return null;
  }
}

/** Records what the overview shows now; brokers not read this time keep what they had. */
export function writeLooked(storage: Pick<Storage, 'getItem' | 'setItem'>, now: number, current: Record<string, readonly string[]>): void {
  const before = readLooked(storage);
  const fingerprints = { ...(before?.fingerprints ?? {}) };
  for (const [id, list] of Object.entries(current)) fingerprints[id] = list.slice(0, MAX_PER_BROKER);
  try {
    storage.setItem(LOOKED_KEY, JSON.stringify({ at: now, fingerprints } satisfies Looked));
  } catch {
    // Storage full or refused: the next look counts nothing as new, as on a first look.
  }
}
