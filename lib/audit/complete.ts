import 'server-only';
import { resultsOf } from './record';
import { getAuditStore } from './store';

/**
 * Completes an audit entry after the gate returned: a bulk job records its per-id outcomes
 * when it finishes (`result` has `succeeded`/`failed` lists like an ActionResult).
 */
export async function completeAuditEntry(auditId: string, result: unknown, details: Record<string, unknown> = {}): Promise<void> {
  const { results, outcome } = resultsOf(result);
  const store = await getAuditStore();
  await store.finish(auditId, { outcome, code: null, message: null, results, details, finishedAt: new Date().toISOString() });
}
