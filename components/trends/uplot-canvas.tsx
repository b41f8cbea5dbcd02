'use client';
import { useEffect, useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisColours, SERIES_DASH, seriesColour } from './palette';
import type { ChartMark, ChartSeries } from './chart-series';

// The only module that imports uPlot: loaded lazily (next/dynamic) by TrendChart, so pages
// without a chart, and the first paint of those with one, never carry it.

const clock = (s: number) =>
  new Date(s * 1000).toLocaleString('en-GB', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Draws each mark as a dashed vertical line across the plot (uPlot's draw hook); how many it
 *  drew is left on the chart's element (`data-marks-drawn`), for tests and for debugging. */
function drawMarks(u: uPlot, marks: readonly ChartMark[], colour: string): void {
  let drawn = 0;
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2 * uPlot.pxRatio;
  ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
  for (const m of marks) {
    const x = u.valToPos(Date.parse(m.at) / 1000, 'x', true);
    if (!(x >= u.bbox.left && x <= u.bbox.left + u.bbox.width)) continue;
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    drawn++;
  }
  ctx.restore();
  u.root.parentElement?.setAttribute('data-marks-drawn', String(drawn));
}

/** The x axis spans the whole window, to the end of the last bucket (its start is the last x):
 *  else that bucket's bar is cut in half and a mark in it (a campaign just begun) is not drawn. */
function windowRange(xs: ArrayLike<number>, min: number, max: number): uPlot.Range.MinMax {
  const step = xs.length > 1 ? xs[1]! - xs[0]! : 0;
  return [min, max + step];
}

export default function UplotCanvas({
  xs,
  series,
  dark,
  height,
  marks = [],
}: {
  xs: number[];
  series: ChartSeries[];
  dark: boolean;
  height: number;
  marks?: readonly ChartMark[];
}) {
  const ref = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef<{ data: uPlot.AlignedData; formats: Array<(n: number) => string>; marks: readonly ChartMark[] }>({
    data: [[]],
    formats: [],
    marks: [],
  });
  // The chart is made again only when what it looks like changes (theme, size, series); new
  // numbers are set into it, so a poll never resets the cursor under the reader's mouse.
  const look = JSON.stringify([dark, height, series.map((s) => [s.label, s.kind, s.integer ?? false])]);

  useLayoutEffect(() => {
    latest.current = {
      data: [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
      formats: series.map((s) => s.format),
      marks,
    };
    plot.current?.setData(latest.current.data);
  });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const c = axisColours(dark);
    const fmt = (i: number) => (v: number) => (latest.current.formats[i] ?? String)(v);
    const axis: uPlot.Axis = { stroke: c.text, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 } };
    const kinds = (JSON.parse(look) as [boolean, number, Array<[string, ChartSeries['kind'], boolean]>])[2];
    // Counts get whole-number ticks (no "0.5 letters").
    const whole = kinds[0]?.[2] ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1e6, 1e7] } : {};
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      scales: {
        x: { time: true, range: (_u, min, max) => windowRange(latest.current.data[0], min, max) },
        y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
      },
      axes: [axis, { ...axis, ...whole, size: 60, values: (_u, ticks) => ticks.map(fmt(0)) }],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      hooks: { draw: [(u) => drawMarks(u, latest.current.marks, c.text)] },
      series: [
        { label: 'Time', value: (_u, v) => (v === null || v === undefined ? '—' : clock(v)) },
        ...kinds.map(([label, kind], i): uPlot.Series => ({
          label,
          stroke: seriesColour(i, dark),
          width: 2,
          dash: SERIES_DASH[i % SERIES_DASH.length],
          fill: kind === 'bars' ? `${seriesColour(i, dark)}aa` : undefined,
          paths: kind === 'bars' ? uPlot.paths.bars!({ size: [0.8, 24] }) : undefined,
          points: { show: kind !== 'bars', size: 4 },
          spanGaps: false,
          // Away from the chart (idx null) the legend shows a dash; on a bucket without data, says so.
          value: (_u, v, _s, idx) => (idx === null || idx === undefined ? '—' : v === null || v === undefined ? 'no data' : fmt(i)(v)),
        })),
      ],
    };
    const u = new uPlot(opts, latest.current.data, el);
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [look, dark, height]);

  return <div ref={ref} className="trend-canvas" data-testid="trend-canvas" />;
}
