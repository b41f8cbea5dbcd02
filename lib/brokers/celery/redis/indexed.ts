import 'server-only';
import type { Redis } from 'ioredis';
import { requireBackend, type ResultCtx } from './context';
import { ResultIndex, RESULT_INDEX_CAP, type IndexedResult } from './result-index';
import { parseRecord, resultKeys, type CeleryRecord } from './results';

// One ResultIndex per result backend connection and key prefix: every read of one adapter
// shares it (the Redis and the RabbitMQ Celery adapters both keep their results in Redis).

const indexes = new WeakMap<Redis, Map<string, ResultIndex>>();

/** The backend's index, brought up to date with everything written before this call. */
export async function freshIndex(ctx: ResultCtx): Promise<ResultIndex> {
  const backend = requireBackend(ctx);
  let byPrefix = indexes.get(backend);
  if (!byPrefix) indexes.set(backend, (byPrefix = new Map()));
  let index = byPrefix.get(ctx.resultPrefix);
  if (!index) byPrefix.set(ctx.resultPrefix, (index = new ResultIndex(backend, ctx.resultPrefix, ctx.resultCap ?? RESULT_INDEX_CAP)));
  await index.fresh();
  return index;
}

/** The index, if one was made (tests read its `stats`). */
export const peekIndex = (ctx: ResultCtx): ResultIndex | null =>
  ctx.backend ? (indexes.get(ctx.backend)?.get(ctx.resultPrefix) ?? null) : null;

/** Closes the index's subscription (the adapter's `close`). */
export function closeResultIndex(ctx: ResultCtx): void {
  if (!ctx.backend) return;
  for (const index of indexes.get(ctx.backend)?.values() ?? []) index.close();
  indexes.delete(ctx.backend);
}

/** The console deleted this record: the index forgets it now, not at the next reconcile. */
export function noteDeleted(ctx: ResultCtx, id: string): void {
  peekIndex(ctx)?.forget(id);
}

/**
 * The full records of `entries`, in their order, read by MGET in chunks (the first of `first`
 * keys, then CHUNK): only as many as the caller consumes. Records gone or no longer FAILURE
 * since the index saw them are skipped (and forgotten) when `status` is given.
 */
export async function* recordsOf(
  ctx: ResultCtx,
  index: ResultIndex,
  entries: readonly IndexedResult[],
  first: number,
  status?: string,
): AsyncGenerator<CeleryRecord> {
  const backend = requireBackend(ctx);
  const keys = resultKeys(ctx.resultPrefix);
  let i = 0;
  let n = Math.max(1, Math.min(first, 500));
  while (i < entries.length) {
    const chunk = entries.slice(i, i + n);
    i += chunk.length;
    n = 500;
    const values = await backend.mget(...chunk.map((e) => keys.meta(e.id)));
    for (let j = 0; j < chunk.length; j++) {
      const raw = values[j];
      const r = typeof raw === 'string' ? parseRecord(chunk[j]!.id, raw) : null;
      if (!r) index.forget(chunk[j]!.id);
      else if (status === undefined || r.status === status) yield r;
    }
  }
}
