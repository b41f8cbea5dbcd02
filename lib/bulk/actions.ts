'use server';
import type { ActionResponse } from '@/lib/actions/response';
import { respond } from '@/lib/actions/respond';
import { controlBulk, createBulk } from './operations';
import type { BulkJobView, BulkOp } from './schema';

// Server actions for the bulk UI: the same gated operations as the POST routes.

export async function createBulkAction(brokerId: string, input: Record<string, unknown>): Promise<ActionResponse<BulkJobView>> {
  return respond((h) => createBulk(brokerId, input, h));
}

export async function controlBulkAction(
  brokerId: string,
  jobId: string,
  op: BulkOp,
  extra: { confirmCount?: number; rate?: number | null; reason?: string } = {},
): Promise<ActionResponse<BulkJobView>> {
  return respond((h) => controlBulk(brokerId, { ...extra, jobId, op }, h));
}
