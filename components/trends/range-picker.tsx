'use client';
import { TREND_RANGES, type TrendRange } from '@/lib/trends/ranges';

const LABELS: Record<TrendRange, string> = { hour: 'Last hour', day: 'Last day', week: 'Last week' };

/** Hour / day / week, as toggle buttons (aria-pressed says which is on, not colour alone). */
export function RangePicker({ value, onChange }: { value: TrendRange; onChange: (r: TrendRange) => void }) {
  return (
    <div
      role="group"
      aria-label="Time range"
      className="inline-flex w-fit overflow-hidden rounded-md border border-zinc-300 dark:border-zinc-700"
    >
      {(Object.keys(TREND_RANGES) as TrendRange[]).map((r) => (
        <button
          key={r}
          type="button"
          aria-pressed={value === r}
          data-testid={`trend-range-${r}`}
          onClick={() => onChange(r)}
          className={`px-2 py-1 text-xs ${value === r ? 'bg-zinc-800 font-semibold text-white underline dark:bg-zinc-200 dark:text-zinc-900' : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'}`}
        >
          {LABELS[r]}
        </button>
      ))}
    </div>
  );
}

export const rangeWords = (r: TrendRange) => ({ hour: 'per minute', day: 'per 15 minutes', week: 'per hour' })[r];
