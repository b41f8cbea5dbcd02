// Chart styles readable in both themes and without colour: each series has its own dash
// pattern and mark as well as its colour (Okabe–Ito, distinguishable with the common colour
// vision deficiencies), and is always named in the legend, the summary and the table.

export const SERIES_COLOURS = {
  light: ['#0072B2', '#D55E00', '#009E73'],
  dark: ['#56B4E9', '#E69F00', '#7FD4B5'],
} as const;

/** Solid, dashed, dotted. */
export const SERIES_DASH: number[][] = [[], [7, 4], [2, 3]];
/** Described in words for the legend below a chart (the canvas legend shows the colours). */
export const SERIES_DASH_WORDS = ['solid line', 'dashed line', 'dotted line'];

export function seriesColour(i: number, dark: boolean): string {
  const p = dark ? SERIES_COLOURS.dark : SERIES_COLOURS.light;
  return p[i % p.length]!;
}

export const axisColours = (dark: boolean) => ({
  text: dark ? '#d4d4d8' : '#3f3f46',
  grid: dark ? '#3f3f46' : '#e4e4e7',
});
