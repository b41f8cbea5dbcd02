import 'server-only';
import * as flows from '@/lib/brokers/service-workflows';
import { ZWorkflowRetryRequest } from '@/lib/brokers/workflow-schema';
import { gate } from './gate';

/**
 * The system's retry of one failed workflow run, through the one gate (who, role, same-site,
 * zod, reason, capability `retryWorkflow`, audit). `input` is `{ id, confirm, reason }`:
 * `confirm` repeats the run's name, the reason is required. The audit entry keeps the status
 * before and the steps sent back to pending.
 */
export const retryWorkflow = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'retry-workflow',
    brokerId,
    capability: 'retryWorkflow',
    schema: ZWorkflowRetryRequest,
    input,
    headers,
    reasonRequired: true,
    target: (r) => ({ ids: [r.id] }),
    run: (r) => flows.retryWorkflow(brokerId, { id: r.id, confirm: r.confirm }),
    audit: (_r, res) => ({
      id: res.id,
      name: res.name,
      before: res.before,
      resets: res.resets.slice(0, 100),
      resetCount: res.resets.length,
    }),
  });
