// One series of a trend chart: what TrendChart is given and hands to the lazily loaded canvas
// (its own module, so the canvas does not import the chart that loads it).
export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  kind: 'line' | 'bars';
  format: (n: number) => string;
  /** Whole numbers (counts, ages in seconds): whole-number ticks (no "0.5 letters", no two "0s"). */
  integer?: boolean;
}

/** A moment marked on a chart (a campaign began): a vertical line there, and a link under it. */
export interface ChartMark {
  /** ISO time. */
  at: string;
  /** What happened, in words ("replay of 40"). */
  label: string;
  href: string;
}
