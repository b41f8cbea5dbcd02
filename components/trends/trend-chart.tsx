'use client';
import dynamic from 'next/dynamic';
import { useMemo } from 'react';
import { ChartMarks } from './chart-marks';
import type { ChartMark, ChartSeries } from './chart-series';
import { SERIES_DASH_WORDS } from './palette';
import { useDark } from './use-dark';

export type { ChartMark, ChartSeries };

const HEIGHT = 160;

const UplotCanvas = dynamic(() => import('./uplot-canvas'), {
  ssr: false,
  loading: () => <div style={{ height: HEIGHT + 40 }} className="animate-pulse rounded bg-zinc-100 dark:bg-zinc-800" />,
});

const when = (ms: number) => new Date(ms).toLocaleString('en-GB', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

function describe(s: ChartSeries): string {
  const known = s.values.filter((v): v is number => v !== null);
  if (!known.length) return `${s.label}: no data in this window`;
  const last = [...s.values].reverse().find((v) => v !== null)!;
  return `${s.label}: latest ${s.format(last)}, highest ${s.format(Math.max(...known))}`;
}

/**
 * A time-series chart (uPlot on a canvas, loaded lazily) with its numbers three ways: the
 * legend under the cursor, a one-line summary, and a table. The canvas is hidden from screen
 * readers, which get the summary and the table instead.
 */
export function TrendChart({
  title,
  from,
  bucketSeconds,
  series,
  testId,
  note,
  marks = [],
}: {
  title: string;
  from: string;
  bucketSeconds: number;
  series: ChartSeries[];
  testId: string;
  note?: string;
  /** Moments marked on the chart (campaigns begun), listed under it as links too. */
  marks?: readonly ChartMark[];
}) {
  const dark = useDark();
  const n = series[0]?.values.length ?? 0;
  const start = Date.parse(from);
  const xs = useMemo(() => Array.from({ length: n }, (_, i) => start / 1000 + i * bucketSeconds), [n, start, bucketSeconds]);
  const summary = series.map(describe).join('; ');
  return (
    <figure className="min-w-0" data-testid={testId}>
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="trend-summary">
        {summary}
        {series.length > 1 ? ` (${series.map((s, i) => `${s.label}: ${SERIES_DASH_WORDS[i]}`).join(', ')})` : ''}
      </p>
      {note ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{note}</p> : null}
      <div aria-hidden="true" className="mt-1">
        <UplotCanvas xs={xs} series={series} dark={dark} height={HEIGHT} marks={marks} />
      </div>
      <ChartMarks marks={marks} />
      <details className="mt-1 text-xs" data-testid="trend-table">
        <summary className="cursor-pointer text-zinc-700 dark:text-zinc-300">Numbers as a table</summary>
        {/* Scrollable, so reachable by keyboard (focusable, named). */}
        <div className="max-h-64 overflow-y-auto" tabIndex={0} role="region" aria-label={`${title}: numbers`}>
          <table className="table-base">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">From</th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="num">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {xs.map((x, i) => (
                <tr key={x}>
                  <td suppressHydrationWarning>{when(x * 1000)}</td>
                  {series.map((s) => {
                    const v = s.values[i] ?? null;
                    return (
                      <td key={s.label} className="num">
                        {v === null ? '—' : s.format(v)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
