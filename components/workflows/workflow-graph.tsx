'use client';
import { memo, useMemo } from 'react';
import type { WorkflowStep, WorkflowsDecl } from '@/lib/brokers/workflow-schema';
import { NODE } from './tones';

// The run's DAG as an SVG in a scrolling box: one column per layer (computed on the server,
// lib/brokers/workflow-graph.ts), edges left to right. Plain SVG elements only, about three per
// step, so hundreds of steps stay light; names are SVG text (never markup).

const W = 168;
const H = 40;
const GAP_X = 56;
const GAP_Y = 14;
const PAD = 12;

const x = (layer: number) => PAD + layer * (W + GAP_X);
const y = (row: number) => PAD + row * (H + GAP_Y);
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function GraphImpl({
  steps,
  decl,
  selected,
  onSelect,
}: {
  steps: WorkflowStep[];
  decl: WorkflowsDecl | undefined;
  selected: string | null;
  onSelect: (name: string) => void;
}) {
  const { width, height, edges, at } = useMemo(() => {
    const at = new Map(steps.map((s) => [s.name, s]));
    const layers = Math.max(0, ...steps.map((s) => s.layer)) + 1;
    const rows = Math.max(0, ...steps.map((s) => s.row)) + 1;
    const edges = steps.flatMap((s) =>
      s.dependsOn.flatMap((d) => {
        const from = at.get(d);
        return from ? [{ key: `${d}->${s.name}`, from, to: s, blocked: !!s.blockedBy }] : [];
      }),
    );
    return { width: x(layers) + PAD - GAP_X, height: y(rows) + PAD - GAP_Y, edges, at };
  }, [steps]);
  const role = (s: WorkflowStep) => decl?.stepStatuses.find((d) => d.key === s.status)?.role ?? 'waiting';
  return (
    <div className="max-h-[70vh] overflow-auto rounded border border-zinc-200 dark:border-zinc-800" data-testid="workflow-graph">
      <svg width={width} height={height} role="img" aria-label={`Workflow graph of ${steps.length} steps`}>
        {edges.map((e) => {
          const x1 = x(e.from.layer) + W;
          const y1 = y(e.from.row) + H / 2;
          const x2 = x(e.to.layer);
          const y2 = y(e.to.row) + H / 2;
          const mid = (x1 + x2) / 2;
          return (
            <path
              key={e.key}
              d={`M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`}
              fill="none"
              stroke={e.blocked ? '#d97706' : '#a1a1aa'}
              strokeDasharray={e.blocked ? '4 3' : undefined}
              strokeWidth={1.2}
            />
          );
        })}
        {steps.map((s) => {
          const c = NODE[role(s)];
          const on = selected === s.name;
          return (
            <g
              key={s.name}
              transform={`translate(${x(s.layer)},${y(s.row)})`}
              onClick={() => onSelect(s.name)}
              className="cursor-pointer"
              data-testid="graph-step"
              data-step={s.name}
              data-status={s.status}
              data-blocked={s.blockedBy ? 'true' : undefined}
            >
              <title>{`${s.name} · ${s.status}${s.detail ? ` (${s.detail})` : ''}${s.blockedBy ? ` · blocked by ${s.blockedBy}` : ''}`}</title>
              <rect
                width={W}
                height={H}
                rx={6}
                fill={c.fill}
                stroke={s.blockedBy ? '#d97706' : c.stroke}
                strokeWidth={on || role(s) === 'failed' ? 3 : 1.5}
                strokeDasharray={s.blockedBy ? '5 3' : undefined}
              />
              <text x={8} y={16} fontSize={12} fontWeight={600} fill="#18181b">
                {cut(s.name, 24)}
              </text>
              <text x={8} y={31} fontSize={10} fill="#3f3f46">
                {cut(`${s.status}${s.detail ? ` (${s.detail})` : ''}${s.fanOut ? ` ${s.fanOut.completed}/${s.fanOut.total}` : ''}`, 30)}
              </text>
            </g>
          );
        })}
      </svg>
      {at.size === 0 ? <p className="p-4 text-sm">This run has no steps.</p> : null}
    </div>
  );
}

/** Re-rendered only when the steps change (polling returns equal data while nothing moves). */
export const WorkflowGraph = memo(GraphImpl);
