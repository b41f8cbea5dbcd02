import 'server-only';
import type { SampleRow, TrendStore } from './store';

export interface SamplerOptions {
  store: TrendStore;
  /** This instance's name in the lease (host, pid and a random part). */
  holder: string;
  intervalMs: number;
  retentionMs: number;
  /** Reads every broker once; a broker that can't be read gives no rows (a gap, never a 0). */
  take: (atMs: number) => Promise<SampleRow[]>;
  now?: () => number;
  log?: (event: Record<string, unknown>) => void;
}

export type TickOutcome = { role: 'sampler'; written: number } | { role: 'standby' } | { role: 'error'; message: string };

/** How long a lease lasts: 3 intervals. */
export const leaseMs = (intervalMs: number) => 3 * intervalMs;

/** Prune once every this many ticks (and on the first): deleting by time is one index range. */
const PRUNE_EVERY = 30;

/**
 * One sampler across every console instance on a state store: each tick, an instance takes or
 * renews the lease (`leaseMs`) and samples only if it holds it, renewing again before it
 * writes. A holder that dies stops renewing and another takes over once its lease runs out; one
 * that stops gives the lease up when it can. Samples are keyed by their interval slot, so even two holders in one slot (a lease
 * that ran out mid-tick) write it once.
 */
export function createSampler(o: SamplerOptions) {
  const now = o.now ?? Date.now;
  const log = o.log ?? ((e) => console.error(JSON.stringify(e)));
  let ticks = 0;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<TickOutcome> | null = null;
  let stopped = false;

  async function tick(): Promise<TickOutcome> {
    try {
      if (!(await o.store.lease(o.holder, leaseMs(o.intervalMs)))) return { role: 'standby' };
      const atMs = Math.floor(now() / o.intervalMs) * o.intervalMs;
      const rows = await o.take(atMs);
      // A read that outlasted the lease (a slow broker) may have let another instance take over:
      // renew before writing, and leave the slot to the new holder if that failed.
      if (!(await o.store.lease(o.holder, leaseMs(o.intervalMs)))) return { role: 'standby' };
      const written = await o.store.write(rows);
      if (ticks++ % PRUNE_EVERY === 0) await o.store.prune(now() - o.retentionMs);
      return { role: 'sampler', written };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log({ event: 'console.trends.sample-failed', message });
      return { role: 'error', message };
    }
  }

  const schedule = () => {
    if (stopped) return;
    // Aligned to the slot boundary (plus a little), so every instance ticks at about the same time.
    const wait = o.intervalMs - (now() % o.intervalMs) + 250;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, wait);
    timer.unref?.();
  };

  return {
    tick,
    start() {
      stopped = false;
      running = tick().finally(schedule);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
      await o.store.release(o.holder).catch(() => undefined);
    },
  };
}
export type Sampler = ReturnType<typeof createSampler>;
