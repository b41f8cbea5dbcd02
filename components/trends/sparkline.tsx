import { formatCount } from '@/lib/text/format';

/**
 * A tiny SVG line (no chart library: the overview stays light). Gaps stay gaps. Each bucket has
 * a hover target with its time and number; screen readers get the label (latest and highest).
 */
export function Sparkline({
  values,
  from,
  bucketSeconds,
  label,
  format = (n) => formatCount(n),
  testId,
}: {
  values: Array<number | null>;
  from: string;
  bucketSeconds: number;
  label: string;
  format?: (n: number) => string;
  testId?: string;
}) {
  const W = 160;
  const H = 28;
  const known = values.filter((v): v is number => v !== null);
  const max = Math.max(1, ...known);
  const step = values.length > 1 ? W / (values.length - 1) : W;
  const y = (v: number) => H - 2 - (v / max) * (H - 4);
  const segments: string[] = [];
  let cur = '';
  values.forEach((v, i) => {
    if (v === null) {
      if (cur) segments.push(cur);
      cur = '';
      return;
    }
    cur += `${cur ? 'L' : 'M'}${(i * step).toFixed(1)},${y(v).toFixed(1)}`;
  });
  if (cur) segments.push(cur);
  const last = [...values].reverse().find((v) => v !== null) ?? null;
  const aria = known.length ? `${label}: latest ${format(last!)}, highest ${format(Math.max(...known))}` : `${label}: no data yet`;
  const start = Date.parse(from);
  const at = (i: number) => new Date(start + i * bucketSeconds * 1000).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return (
    <svg
      width={W}
      height={H}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={aria}
      data-testid={testId}
      data-latest={last ?? ''}
      className="overflow-visible text-sky-700 dark:text-sky-300"
    >
      <line x1={0} x2={W} y1={H - 1} y2={H - 1} className="stroke-zinc-300 dark:stroke-zinc-700" strokeWidth={1} />
      {segments.map((d) => (
        <path key={d} d={d} fill="none" stroke="currentColor" strokeWidth={1.5} />
      ))}
      {last !== null ? (
        <circle cx={(values.lastIndexOf(last) * step).toFixed(1)} cy={y(last).toFixed(1)} r={2.5} fill="currentColor" />
      ) : null}
      {values.map((v, i) => (
        <rect key={i} x={i * step - step / 2} y={0} width={step} height={H} fill="transparent">
          <title suppressHydrationWarning>{`${at(i)}: ${v === null ? 'no data' : format(v)}`}</title>
        </rect>
      ))}
    </svg>
  );
}
