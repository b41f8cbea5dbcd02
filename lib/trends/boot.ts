import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { processId } from '@/lib/state/process-id';
import { getTrendConfig } from './config';
import { getDeathStore } from './deaths-open';
import { serviceDeathReads, tickDeaths } from './deaths';
import { createSampler, type Sampler } from './sampler';
import { getTrendStore } from './store';
import { takeSamples } from './take';

const KEY = Symbol.for('potatoq.console.trendSampler');
type Global = typeof globalThis & { [KEY]?: Sampler };

/** Starts this instance's sampler (once per process); it samples only while it holds the lease. */
export async function startTrendSampler(): Promise<void> {
  const g = globalThis as Global;
  const cfg = getTrendConfig();
  if (g[KEY] || cfg.intervalMs === 0) return;
  const store = await getTrendStore();
  const sampler = createSampler({
    store,
    holder: processId(),
    intervalMs: cfg.intervalMs,
    retentionMs: cfg.retentionMs,
    // The holder also records the deaths it sees (lib/trends/deaths.ts), so the dead-letter
    // chart keeps what died after the letters are replayed or discarded.
    take: async (atMs) => {
      const rows = await takeSamples(atMs, cfg.maxQueues);
      await Promise.all([getDeathStore(), serviceDeathReads()])
        .then(([deaths, reads]) => tickDeaths(deaths, reads, Date.now(), cfg.retentionMs))
        .catch((e: unknown) => console.error(JSON.stringify({ event: 'console.trends.deaths-failed', message: String(e) })));
      return rows;
    },
  });
  g[KEY] = sampler;
  sampler.start();
  // A stopping instance gives the lease up, so another one samples from its next tick. Best
  // effort: Next's own handler may end the process first (the lease then runs out by itself).
  // Without another handler, this one ends the process as the signal would have.
  for (const sig of ['SIGTERM', 'SIGINT'] as const)
    process.once(sig, () => {
      const alone = process.listenerCount(sig) === 0;
      void Promise.race([sampler.stop(), new Promise((r) => setTimeout(r, 1500))]).finally(() => {
        if (alone) process.exit(sig === 'SIGINT' ? 130 : 143);
      });
    });
}

/** Boot: a bad trend setting stops the server naming the variable; then the sampler starts. */
export function bootTrends(): void {
  try {
    getTrendConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`potatoq console: bad configuration: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  startTrendSampler().catch((e: unknown) =>
    console.error(JSON.stringify({ event: 'console.trends.start-failed', message: e instanceof Error ? e.message : String(e) })),
  );
}
