'use server';
import type { WorkflowRetryResult } from '@/lib/brokers/workflow-schema';
import { respond } from './respond';
import { retryWorkflow } from './workflows';
import type { ActionResponse } from './response';

/** The Workflows page's retry: the same gated operation as `POST …/workflows/{id}/retry`. */
export async function retryWorkflowAction(
  brokerId: string,
  id: string,
  confirm: string,
  reason?: string,
): Promise<ActionResponse<WorkflowRetryResult>> {
  return respond((h) => retryWorkflow(brokerId, { id, confirm, reason }, h));
}
