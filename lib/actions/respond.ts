import 'server-only';
import { headers } from 'next/headers';
import { toConsoleError } from '@/lib/brokers/service';
import type { ActionResponse } from './response';

/**
 * Runs a gated operation for a server action with the request's headers, and hands any error
 * back as data (Next masks errors thrown from server actions in production). Not itself a
 * server action: it lives outside the 'use server' files so it is never exposed as one.
 */
export async function respond<T>(run: (h: Headers) => Promise<T>): Promise<ActionResponse<T>> {
  try {
    return { ok: true, data: await run(await headers()) };
  } catch (e) {
    const err = toConsoleError(e);
    return { ok: false, error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } };
  }
}
