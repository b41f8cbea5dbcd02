'use client';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { Cap } from '@/lib/brokers/schema';
import { agoMs, boundMs, describeRange, RANGE_HINT, RANGE_PRESETS } from '@/lib/brokers/time-range';

/** The page's URL with the range replaced (empty values dropped; paging starts again). */
function withRange(pathname: string, search: URLSearchParams, since?: string, until?: string): string {
  const p = new URLSearchParams(search);
  p.delete('cursor');
  for (const [k, v] of [
    ['since', since],
    ['until', until],
  ] as const)
    if (v) p.set(k, v);
    else p.delete(k);
  const qs = p.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}

/** A bound's problem in words (the server refuses it the same way), or null. */
const problemOf = (field: string, v: string | undefined) =>
  v && boundMs(v, Date.now()) === null ? `${field}: "${v.slice(0, 40)}" is not a time: ${RANGE_HINT}` : null;

/** A datetime-local value ("2026-12-04T20:15") read in the viewer's zone, as an ISO instant. */
const instantOf = (local: string) => {
  const ms = local ? new Date(local).getTime() : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
};

/** One end of a custom range, in the viewer's clock (`range-from`, `range-to`). */
function LocalTime({ word, label, value, onChange }: { word: 'from' | 'to'; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <label className="flex items-center gap-1">
      {word}
      <input
        type="datetime-local"
        className="input py-0.5 text-xs"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`range-${word}`}
        aria-label={`${label} ${word} (your clock)`}
      />
    </label>
  );
}

const chip = 'rounded px-1.5 py-0.5 text-xs font-medium';
const on = `${chip} bg-zinc-800 text-white dark:bg-zinc-200 dark:text-zinc-900`;
const off = `${chip} text-sky-700 hover:bg-zinc-100 dark:text-sky-400 dark:hover:bg-zinc-800`;

/**
 * The list's time range, in the URL (`since`, `until`): presets (the last 15m … 7d, kept relative
 * so a poll reads the last hour again) and a custom from/to in the viewer's clock, sent as
 * instants. Where the broker cannot filter by this time, its reason instead of the control.
 */
export function TimeRangeControl({ label, since, until, cap }: { label: string; since?: string; until?: string; cap?: Cap }) {
  const pathname = usePathname();
  const search = useSearchParams();
  const router = useRouter();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  if (cap && !cap.on)
    return (
      <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="range-unavailable">
        {label}: no time range here: {cap.why ?? 'not available'}
      </p>
    );
  const href = (s?: string, u?: string) => withRange(pathname, new URLSearchParams(search.toString()), s, u);
  const problems = [problemOf('since', since), problemOf('until', until)].filter(Boolean);
  const preset = since && !until && agoMs(since) !== null ? since : null;
  const custom = !!(since || until) && preset === null;
  return (
    <div className="grid gap-1" data-testid="time-range">
      <div className="flex flex-wrap items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400">
        <span>{label}:</span>
        <Link
          href={href()}
          className={since || until ? off : on}
          aria-current={since || until ? undefined : 'true'}
          data-testid="range-any"
        >
          any time
        </Link>
        {RANGE_PRESETS.map((p) => (
          <Link
            key={p}
            href={href(p)}
            className={preset === p ? on : off}
            aria-current={preset === p ? 'true' : undefined}
            data-testid={`range-${p}`}
          >
            last {p}
          </Link>
        ))}
        <form
          className="ml-2 flex flex-wrap items-center gap-1"
          data-testid="range-custom"
          onSubmit={(e) => {
            e.preventDefault();
            router.push(href(instantOf(from), instantOf(to)));
          }}
        >
          <LocalTime word="from" label={label} value={from} onChange={setFrom} />
          <LocalTime word="to" label={label} value={to} onChange={setTo} />
          <button type="submit" className={off} data-testid="range-apply" disabled={!from && !to}>
            apply
          </button>
        </form>
      </div>
      {custom && !problems.length ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-300" data-testid="range-words">
          {label} {describeRange({ since, until })}
        </p>
      ) : null}
      {problems.map((p) => (
        <p key={p} role="alert" className="text-xs text-red-700 dark:text-red-400" data-testid="range-error">
          {p}
        </p>
      ))}
    </div>
  );
}
