import type { Tone } from '@/components/ui/badge';
import type { RunRole } from '@/lib/brokers/workflow-schema';

/** One colour per role, for badges and graph nodes alike. */
export const TONE: Record<RunRole, Tone> = { waiting: 'neutral', running: 'blue', done: 'green', failed: 'red', cancelled: 'yellow' };

/** SVG fill and stroke per role (light and dark read the same: saturated strokes, pale fills). */
export const NODE: Record<RunRole, { fill: string; stroke: string }> = {
  waiting: { fill: '#f4f4f5', stroke: '#a1a1aa' },
  running: { fill: '#e0f2fe', stroke: '#0284c7' },
  done: { fill: '#d1fae5', stroke: '#059669' },
  failed: { fill: '#fee2e2', stroke: '#dc2626' },
  cancelled: { fill: '#fef3c7', stroke: '#d97706' },
};
