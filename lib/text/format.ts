// Pure formatting helpers shared by server and client components. Inputs are DTO strings;
// unknown values (null) always render as an em dash, never as 0.

import { visible } from '@/lib/text/visible';

export const DASH = '—';

export function formatCount(n: number | null | undefined, capped?: { atLeast: number; estimate: number | null }): string {
  if (capped) {
    // Past the cap the console stops counting (no full count(*) on the request path).
    const floor = `${capped.atLeast.toLocaleString('en-US')}+`;
    return capped.estimate === null ? floor : `${floor} (≈${capped.estimate.toLocaleString('en-US')})`;
  }
  return n === null || n === undefined ? DASH : n.toLocaleString('en-US');
}

/** The title of a count cell: why a capped count is only a lower bound; none when exact. */
export function countTitle(capped?: { why?: string }): string | undefined {
  if (!capped) return undefined;
  return capped.why ?? 'a lower bound: the console stopped counting at its cap';
}

/** "3m 12s", "2h 5m", "4d 3h": the two most significant units, for ages in lists. */
export function formatAge(seconds: number): string {
  if (!Number.isFinite(seconds)) return DASH;
  const s = Math.max(0, Math.floor(seconds));
  const units: Array<[string, number]> = [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ];
  for (let i = 0; i < units.length; i++) {
    const [label, size] = units[i]!;
    const n = Math.floor(s / size);
    if (n === 0 && size > 1) continue;
    const next = units[i + 1];
    if (!next) return `${n}${label}`;
    const m = Math.floor((s % size) / next[1]);
    return m > 0 ? `${n}${label} ${m}${next[0]}` : `${n}${label}`;
  }
  return '0s';
}

/** Seconds between an ISO time and now (positive in the past). */
export function secondsSince(iso: string, now: number = Date.now()): number {
  return (now - Date.parse(iso)) / 1000;
}

/** "3m 12s ago" / "in 5m" for an ISO timestamp. */
export function formatRelative(iso: string | null, now: number = Date.now()): string {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return DASH;
  const d = (now - t) / 1000;
  if (Math.abs(d) < 1) return 'just now';
  return d >= 0 ? `${formatAge(d)} ago` : `in ${formatAge(-d)}`;
}

/** ISO timestamp as UTC text "2026-11-30 01:33:09.123 UTC". */
export function formatUtc(iso: string | null): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().replace('T', ' ').replace('Z', ' UTC');
}

/** Local wall-clock text with the zone name, for the viewer's own time. */
export function formatLocal(iso: string | null): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  // dateStyle/timeStyle cannot be combined with timeZoneName (V8 throws "Invalid option").
  return d.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
}

/**
 * Humanises a timedelta given as exact decimal seconds text: "1 day 2h 3m 4.5s".
 * Works on the text so large values don't lose precision in the fractional part.
 */
export function formatTimedelta(secondsText: string): string {
  const m = /^(-)?(\d+)(?:\.(\d+))?(?:[eE][+-]?\d+)?$/.exec(secondsText.trim());
  if (!m || /[eE]/.test(secondsText)) {
    const n = Number(secondsText);
    if (!Number.isFinite(n)) return `${secondsText} s`;
    return formatTimedelta(n.toFixed(6).replace(/\.?0+$/, ''));
  }
  const neg = m[1] === '-';
  let whole = BigInt(m[2]!);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const days = whole / 86400n;
  whole %= 86400n;
  const h = whole / 3600n;
  whole %= 3600n;
  const min = whole / 60n;
  const sec = whole % 60n;
  const parts: string[] = [];
  if (days > 0n) parts.push(`${days} day${days === 1n ? '' : 's'}`);
  if (h > 0n) parts.push(`${h}h`);
  if (min > 0n) parts.push(`${min}m`);
  if (sec > 0n || frac || parts.length === 0) parts.push(`${sec}${frac ? `.${frac}` : ''}s`);
  return (neg ? '-' : '') + parts.join(' ');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Cuts long text for lists (the full text stays available in the detail page) and shows hidden or bidi characters as markers (lib/text/visible). */
export function truncate(text: string, max = 80): string {
  return visible(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}
