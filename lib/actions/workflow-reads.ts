import 'server-only';
import { z } from 'zod';
import { getAuthConfig } from '@/lib/auth/config';
import * as flows from '@/lib/brokers/service-workflows';
import { ZWorkflowId, ZWorkflowListQuery, type WorkflowDetail } from '@/lib/brokers/workflow-schema';
import { HIDDEN_TEXT } from '@/lib/redaction';
import { parseInput } from '@/lib/brokers/parse-input';
import { parseParams } from './http';

// The Workflows view's reads, shared by its route handlers and the pages' prefetch. Step
// payloads and results carry task arguments: hidden like every argument when
// POTATOQ_CONSOLE_REDACT_ARGS is on (names, statuses, times and errors stay).

const hide = (d: WorkflowDetail): WorkflowDetail => ({
  ...d,
  context: d.context === null ? null : HIDDEN_TEXT,
  steps: d.steps.map((s) => ({
    ...s,
    payload: s.payload === null ? null : HIDDEN_TEXT,
    result: s.result === null ? null : HIDDEN_TEXT,
    resultCut: false,
  })),
});

/** GET /api/brokers/:broker/workflows?status&cursor&limit */
export const workflowListRead = (broker: string, params: URLSearchParams) =>
  flows.listWorkflows(broker, parseParams(ZWorkflowListQuery, params));

/** GET /api/brokers/:broker/workflows/:id: a malformed id is InvalidInput under `id`. */
export async function workflowRead(broker: string, rawId: string): Promise<WorkflowDetail> {
  const { id } = parseInput(z.object({ id: ZWorkflowId }), { id: rawId });
  const d = await flows.getWorkflow(broker, id);
  return getAuthConfig().redactArgs ? hide(d) : d;
}
