// The contract's answer to a write over many ids, assembled once for every adapter.
// Client-safe: no server imports.
import type { ActionOutcome, ActionResult } from '@/lib/brokers/dto';

/**
 * `action` over `ids` as the contract reports it: `requested` counts `ids` as given (pass the
 * deduplicated list where the system acts on each id once), the outcomes keep their order
 * and split into succeeded (`ok`) and failed (every other code, with its reason).
 */
export function actionResult(
  action: ActionResult['action'],
  brokerId: string,
  ids: readonly string[],
  outcomes: readonly ActionOutcome[],
): ActionResult {
  return {
    action,
    brokerId,
    requested: ids.length,
    succeeded: outcomes.filter((o) => o.outcome === 'ok'),
    failed: outcomes.filter((o) => o.outcome !== 'ok'),
  };
}

/**
 * One outcome per requested id, in the ids' order, from what a write reported (in any order,
 * under the system's spelling of the id: `key`, e.g. lower-cased UUIDs). An id the write did
 * not report is `missing(id)`, never dropped; a reported outcome carries the id as requested.
 * An id reported twice (a write given it twice) answers with its last report: where it ended.
 */
export function outcomesInOrder(
  ids: readonly string[],
  reported: Iterable<ActionOutcome>,
  missing: (id: string) => ActionOutcome,
  key: (id: string) => string = (id) => id,
): ActionOutcome[] {
  const byId = new Map<string, ActionOutcome>();
  for (const o of reported) byId.set(o.id, o);
  return ids.map((id) => {
    const o = byId.get(key(id));
    return o ? { ...o, id } : missing(id);
  });
}

/** A failure's text as an outcome's reason (what a driver threw may be no Error). */
export const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
