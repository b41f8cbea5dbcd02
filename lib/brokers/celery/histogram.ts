import 'server-only';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import type { Letter } from './rabbitmq/letter';
import type { DeadHistogram, DeadHistogramQuery } from '@/lib/brokers/schema';
import { bucketTimes } from '@/lib/trends/ranges';
import { requireBackend, type ResultCtx } from './redis/context';
import { failureReason, RESULT_SCAN_CAP, scanRecords } from './redis/results';

// Celery's dead letters per bucket of when they died: a FAILURE record's `date_done` (the worker's
// clock when it stored the failure), and on RabbitMQ a `deadLetterQueue` message's x-death time.
// Celery keeps no index by time, so this is the same bounded read the failure list makes: a SCAN
// of the backend's `celery-task-meta-*` keys, at most RESULT_SCAN_CAP (20,000) records of any
// status per answer, in SCAN order (not the newest: nothing orders them); `scannedNewest` is set to
// the number read when there were more. A DLQ browse holds at most `deadBrowseLimit` messages.

interface Failures {
  /** `date_done` (ms; null: none stored) of the FAILURE records that match the query, by id. */
  times: Map<string, number | null>;
  /** Every FAILURE record's id, matching or not. */
  recorded: Set<string>;
  capped: number | null;
}

async function failureTimes(ctx: ResultCtx, q: DeadHistogramQuery): Promise<Failures> {
  const { records, capped } = await scanRecords(requireBackend(ctx), ctx.resultPrefix);
  const times = new Map<string, number | null>();
  const recorded = new Set<string>();
  for (const r of records) {
    if (r.status !== 'FAILURE') continue;
    recorded.add(r.id);
    if (q.queue !== undefined && r.queue !== q.queue) continue;
    if (q.group !== undefined && reasonFingerprint(failureReason(r)).key !== q.group) continue;
    times.set(r.id, r.dateDoneMs);
  }
  return { times, recorded, capped: capped ? RESULT_SCAN_CAP : null };
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
