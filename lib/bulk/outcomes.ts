import type { ActionOutcome, ActionResult, OutcomeCode } from '@/lib/brokers/schema';
import type { ActedItem } from '@/lib/campaigns/store-bulk';
import type { BulkProgress } from './schema';

export type { ActedItem };

/** The ids of a batch starting at snapshot place `start` that were not refused; given the
 *  batch's `done` outcomes, each with the id the broker gave it (`taskId`) where it differs, and
 *  those it found done already too (`already`: the job's campaign decides whether they join). */
export function okOf(
  batch: readonly string[],
  start: number,
  notOk: readonly ActionOutcome[],
  done: readonly ActionOutcome[] = [],
): ActedItem[] {
  const refused = new Set(notOk.map((o) => o.id));
  const answered = new Map(done.map((o) => [o.id, o]));
  const out: ActedItem[] = [];
  batch.forEach((id, i) => {
    const o = answered.get(id);
    const taskId = o?.taskId ? { taskId: o.taskId } : {};
    if (!refused.has(id)) out.push({ n: start + i, id, ...taskId });
    else if (o?.outcome === 'already') out.push({ n: start + i, id, ...taskId, already: true });
  });
  return out;
}

/** Successful ids kept by id (the rest only counted): a 100,000-id job stays small in memory. */
export const SUCCESS_SAMPLE = 100;

/** Outcomes that mean "this row changed since the snapshot" (or was already done), so nothing
 *  was done to it and nothing is worth retrying. */
const SKIPPED: ReadonlySet<OutcomeCode> = new Set<OutcomeCode>(['missing', 'running', 'already']);

/**
 * Per-id outcomes of a bulk job. Failures and skips are kept in full (bounded by the snapshot
 * cap); successes as a count plus the first SUCCESS_SAMPLE ids.
 */
export class OutcomeLog {
  succeeded = 0;
  batches = 0;
  readonly succeededSample: string[] = [];
  readonly skipped: ActionOutcome[] = [];
  readonly failed: ActionOutcome[] = [];

  /** Records one batch; returns its outcomes other than ok. Ids the broker reported nothing
   *  for count as failed, never as done. */
  addBatch(batch: string[], result: ActionResult): ActionOutcome[] {
    this.batches += 1;
    const byId = new Map<string, ActionOutcome>();
    for (const o of [...result.succeeded, ...result.failed]) byId.set(o.id, o);
    const notOk: ActionOutcome[] = [];
    for (const id of batch) {
      const o = byId.get(id) ?? { id, outcome: 'error' as const, message: 'the broker reported no outcome for this id' };
      this.add(o);
      if (o.outcome !== 'ok') notOk.push(o);
    }
    return notOk;
  }

  /** A batch the broker refused as a whole: every id of it failed with the same reason. */
  failBatch(batch: string[], message: string): ActionOutcome[] {
    this.batches += 1;
    const out = batch.map((id) => ({ id, outcome: 'error' as const, message }));
    for (const o of out) this.add(o);
    return out;
  }

  /** A log read back from the state store (a job taken over from a stopped console). */
  restore(r: { succeeded: number; sample: string[]; batches: number; outcomes: ActionOutcome[] }): void {
    this.succeeded = r.succeeded;
    this.batches = r.batches;
    this.succeededSample.push(...r.sample.slice(0, SUCCESS_SAMPLE));
    for (const o of r.outcomes) this.add(o);
  }

  /** Undoes `failBatch` for these ids (a failed job resumed from that batch). */
  forgetBatch(ids: string[]): void {
    const gone = new Set(ids);
    const kept = this.failed.filter((o) => !gone.has(o.id));
    this.failed.splice(0, this.failed.length, ...kept);
    this.batches -= 1;
  }

  /** One id's outcome as it comes (a one-pass job reports each id when it is settled). */
  add(o: ActionOutcome): void {
    if (o.outcome === 'ok') {
      this.succeeded += 1;
      if (this.succeededSample.length < SUCCESS_SAMPLE) this.succeededSample.push(o.id);
    } else if (SKIPPED.has(o.outcome)) {
      this.skipped.push(o);
    } else {
      this.failed.push(o);
    }
  }

  progress(total: number): BulkProgress {
    const processed = this.succeeded + this.skipped.length + this.failed.length;
    return { total, processed, succeeded: this.succeeded, skipped: this.skipped.length, failed: this.failed.length, batches: this.batches };
  }
}
