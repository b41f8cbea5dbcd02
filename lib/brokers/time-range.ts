// A list's time range: `since` (inclusive) and `until` (exclusive) bounds on the time each
// system itself keeps for the list (dead letters: when each died). In a URL a bound is an
// instant with its zone (`2026-12-04T20:00:00Z`) or a duration ago (`15m`, `2h`, `7d`). Parsing
// resolves a duration against the clock once, so what reaches an adapter, a bulk job's frozen
// filter or an export is always absolute; a link or a saved view keeps the text, so a saved
// "1h" stays relative. Client-safe: no server imports.
import { z } from 'zod';

export const RANGE_UNITS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
type Unit = keyof typeof RANGE_UNITS;
/** The presets the range control offers, shortest first. */
export const RANGE_PRESETS = ['15m', '1h', '6h', '24h', '7d'] as const;
/** A duration longer than this (about ten years) is a typo, not a range. */
const MAX_AGO_MS = 3_660 * RANGE_UNITS.d;
const RELATIVE = /^(\d{1,7})([smhdw])$/;
// A date and a time with its zone: an instant means the same everywhere, so no zone is guessed.
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
export const RANGE_HINT = 'give an instant with its zone (2026-12-04T20:00:00Z) or a duration ago (15m, 2h, 7d)';

/** A duration ago (`15m`) in milliseconds, or null when `text` is not one. */
export function agoMs(text: string): number | null {
  const m = RELATIVE.exec(text.trim());
  if (!m) return null;
  const ms = Number(m[1]) * RANGE_UNITS[m[2] as Unit];
  return ms > 0 && ms <= MAX_AGO_MS ? ms : null;
}

/** The instant a bound's text names, as epoch ms (a duration counts back from `nowMs`), or null
 *  when it names none. */
export function boundMs(text: string, nowMs: number): number | null {
  const t = text.trim();
  const ago = agoMs(t);
  if (ago !== null) return nowMs - ago;
  if (!INSTANT.test(t)) return null;
  const ms = Date.parse(t.replace(' ', 'T'));
  return Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? ms : null;
}

/** One bound in a query: empty is none; otherwise resolved now to an ISO instant (ms precision),
 *  or an issue under the field naming what is accepted. */
export const ZTimeBound = z
  .string()
  .trim()
  .max(64, 'at most 64 characters')
  .transform((v, ctx) => {
    if (!v) return undefined;
    const ms = boundMs(v, Date.now());
    if (ms === null) {
      ctx.addIssue({ code: 'custom', message: `"${v.slice(0, 40)}" is not a time: ${RANGE_HINT}` });
      return z.NEVER;
    }
    return new Date(ms).toISOString();
  })
  .optional()
  .describe('an instant with its zone (ISO 8601) or a duration ago (15m, 2h, 7d); resolved when the request is read');

export interface TimeRange {
  /** Inclusive lower bound, ISO. */
  since?: string;
  /** Exclusive upper bound, ISO. */
  until?: string;
}

/** Why a resolved range is empty by construction (`until` not after `since`), or null. */
export function rangeProblem(r: TimeRange): { field: 'until'; message: string } | null {
  if (r.since === undefined || r.until === undefined) return null;
  return Date.parse(r.until) > Date.parse(r.since) ? null : { field: 'until', message: 'until must be later than since' };
}

export const hasRange = (r: TimeRange) => r.since !== undefined || r.until !== undefined;

/** The range as epoch ms bounds (absent: open), for adapters that compare in memory. */
export function rangeMs(r: TimeRange): { from: number | null; to: number | null } {
  return { from: r.since === undefined ? null : Date.parse(r.since), to: r.until === undefined ? null : Date.parse(r.until) };
}

/** Whether a time (epoch ms; null: the system keeps none) is inside the range. A letter with no
 *  known time is outside any range: nobody can say it died then. */
export function inRange(ms: number | null | undefined, r: TimeRange): boolean {
  if (!hasRange(r)) return true;
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return false;
  const { from, to } = rangeMs(r);
  return (from === null || ms >= from) && (to === null || ms < to);
}

/** A bound's text in words: "the last 2h" style for a duration, the instant otherwise. */
function boundWords(text: string): string {
  return agoMs(text) !== null ? `${text} ago` : text;
}

/** The range in an operator's words ("since 1h ago", "from … until …"), or null with none. */
export function describeRange(r: { since?: string; until?: string }): string | null {
  if (r.since && r.until) return `from ${boundWords(r.since)} until ${boundWords(r.until)}`;
  if (r.since) return agoMs(r.since) !== null ? `in the last ${r.since}` : `since ${r.since}`;
  if (r.until) return `before ${boundWords(r.until)}`;
  return null;
}
