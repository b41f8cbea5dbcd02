import Link from 'next/link';
import type { ChartMark } from './chart-series';

const when = (ms: number) => new Date(ms).toLocaleString('en-GB', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** The moments marked on a chart (dashed lines on the canvas), in words, each a link: what the
 *  canvas shows, for keyboards and screen readers too. Nothing when there are none. */
export function ChartMarks({ marks }: { marks: readonly ChartMark[] }) {
  if (!marks.length) return null;
  return (
    <div className="text-xs" data-testid="trend-marks">
      <span className="text-zinc-600 dark:text-zinc-400">Marked (dashed lines): </span>
      {marks.map((m, i) => (
        <span key={m.href}>
          {i ? ' · ' : ''}
          <Link href={m.href} className="underline" suppressHydrationWarning>
            {m.label} at {when(Date.parse(m.at))}
          </Link>
        </span>
      ))}
    </div>
  );
}
