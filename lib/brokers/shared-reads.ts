import 'server-only';
import { getConfig } from '@/lib/config';
import { createReadCache, type ReadCache } from './read-cache';

/** Answers kept at most, whatever their size (the byte cap is the configuration's). */
export const READ_CACHE_ENTRIES = 2000;

// One per process, shared by the route handlers, the server components and the fast reads
// (lib/http/fast-reads.ts), which Next may load as separate module copies: hence globalThis.
const g = globalThis as unknown as { __potatoqSharedReads?: ReadCache };

/** This process's shared reads (lib/brokers/read-cache.ts), sized by the configuration. A
 *  configuration without the setting (a test's stand-in) shares nothing. */
export function sharedReads(): ReadCache {
  if (g.__potatoqSharedReads) return g.__potatoqSharedReads;
  const c = getConfig().readCache;
  g.__potatoqSharedReads = createReadCache({
    ttlMs: c?.ttlMs ?? 0,
    maxBytes: c?.maxBytes ?? 1,
    maxEntries: READ_CACHE_ENTRIES,
  });
  return g.__potatoqSharedReads;
}

/** After a write to a broker: its shared answers are forgotten (the next read asks it). */
export function forgetReads(brokerId: string): void {
  g.__potatoqSharedReads?.invalidate(brokerId);
}

/** Tests only: the next read builds a new cache from the configuration as it is then. */
export function resetSharedReads(): void {
  delete g.__potatoqSharedReads;
}
