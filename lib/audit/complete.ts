import 'server-only';
import { resultsOf } from './record';
import { getAuditStore } from './store';

/**
 * Completes an audit entry after the gate returned: a bulk job records its per-id outcomes
 * when it finishes (`result` has `succeeded`/`failed` lists like an ActionResult); `addIds`
 * are ids acted on beyond the MAX_IDS the entry was begun with (each task's history finds it).
 */
export async function completeAuditEntry(
  auditId: string,
  result: unknown,
  details: Record<string, unknown> = {},
  addIds: string[] = [],
): Promise<void> {
  const { results, outcome } = resultsOf(result);
  const store = await getAuditStore();
  await store.finish(auditId, { outcome, code: null, message: null, results, details, finishedAt: new Date().toISOString(), addIds });
}
