import 'server-only';
import type { Counted } from '@/lib/brokers/schema';

// Celery's counts in the contract's shape: keyed by its declared states (./model.ts).

/** Celery's counted states (its declared states' keys) and its failures (`dead`). */
export type CeleryCountKey = 'ready' | 'scheduled' | 'running' | 'dead';

/** A queue's count of one of Celery's states (`dead` included); null when unknown. */
export const countIn = (q: Counted, k: CeleryCountKey): number | null => (k === 'dead' ? q.dead : (q.counts[k] ?? null));

/** Celery's per-state counts keyed by its declared states. */
export const celeryCounts = (ready: number | null, scheduled: number | null, running: number | null): Record<string, number | null> => ({
  ready,
  scheduled,
  running,
});
