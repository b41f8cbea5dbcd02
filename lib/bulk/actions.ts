'use server';
import { headers } from 'next/headers';
import type { ActionResponse } from '@/lib/actions/response';
import { toConsoleError } from '@/lib/brokers/service';
import { controlBulk, createBulk } from './operations';
import type { BulkJobView, BulkOp } from './schema';

// Server actions for the bulk UI: the same gated operations as the POST routes.

async function respond<T>(run: (h: Headers) => Promise<T>): Promise<ActionResponse<T>> {
  try {
    return { ok: true, data: await run(await headers()) };
  } catch (e) {
    const err = toConsoleError(e);
    return { ok: false, error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } };
  }
}

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
