import 'server-only';
import type { Letter } from './rabbitmq/letter';
import type { DeadHistogram, DeadHistogramQuery } from '@/lib/brokers/schema';
import { bucketTimes } from '@/lib/trends/ranges';
import { requireBackend, type ResultCtx } from './redis/context';
import { freshIndex } from './redis/indexed';
import { RESULT_INDEX_CAP } from './redis/result-index';

// Celery's dead letters per bucket of when they died: a FAILURE record's `date_done` (the worker's
// clock when it stored the failure), and on RabbitMQ a `deadLetterQueue` message's x-death time.
// Celery keeps no index by time, so this reads the console's own index of the backend's
// `celery-task-meta-*` records (./redis/result-index.ts), as the failure list does: at most
// RESULT_INDEX_CAP records of any status, in SCAN order (not the newest: nothing orders them);
// `scannedNewest` is set to the number kept when there were more. A DLQ browse holds at most `deadBrowseLimit` messages.

interface Failures {
  /** `date_done` (ms; null: none stored) of the FAILURE records that match the query, by id. */
  times: Map<string, number | null>;
  /** Every FAILURE record's id, matching or not. */
  recorded: Set<string>;
  capped: number | null;
}

async function failureTimes(ctx: ResultCtx, q: DeadHistogramQuery): Promise<Failures> {
  const index = await freshIndex(ctx);
  const times = new Map<string, number | null>();
  const recorded = new Set<string>();
  for (const r of index.failures()) {
    recorded.add(r.id);
    if (q.queue !== undefined && r.queue !== q.queue) continue;
    if (q.group !== undefined && r.fail?.fp.key !== q.group) continue;
    times.set(r.id, r.doneMs);
  }
  return { times, recorded, capped: index.capped ? (ctx.resultCap ?? RESULT_INDEX_CAP) : null };
}

/**
 * The histogram of FAILURE records (when a backend is configured) and, given `letters`, of the
 * DLQ's messages too (grouped by `groupKey`, as the dead-letter groups group them). A task that is in both (Celery records a FAILURE for a task it rejects
 * without requeue) is counted once, by its record, as the failure list shows it.
 */
export async function celeryDeadHistogram(
  ctx: ResultCtx,
  q: DeadHistogramQuery,
  letters?: { read: () => Promise<Letter[]>; groupKey: (l: Letter) => string },
): Promise<DeadHistogram> {
  // Without a backend there are no records: only a DLQ can answer (else Unsupported, with why).
  if (!letters) requireBackend(ctx);
  const none: Failures = { times: new Map(), recorded: new Set(), capped: null };
  const { times, recorded, capped } = ctx.backend ? await failureTimes(ctx, q) : none;
  if (letters)
    for (const l of await letters.read()) {
      if (recorded.has(l.id)) continue;
      if (q.queue !== undefined && l.queue !== q.queue) continue;
      if (q.group !== undefined && letters.groupKey(l) !== q.group) continue;
      times.set(l.id, l.diedAtMs);
    }
  return { ...bucketTimes(times.values(), q), scannedNewest: capped };
}
