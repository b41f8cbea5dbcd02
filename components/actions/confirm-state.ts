import type { ActionResponse } from '@/lib/actions/response';

/** What a confirmation shows of its action's run: busy, done, and the refusal by field (the
 *  typed name, the reason) or as a whole. */
export interface ConfirmState {
  pending: boolean;
  done: boolean;
  confirmError?: string;
  reasonError?: string;
  error: { code: string; message: string } | null;
}

export function confirmState(m: { data?: ActionResponse<unknown>; error: Error | null; isPending: boolean }): ConfirmState {
  const refused = m.data && !m.data.ok ? m.data.error : null;
  const confirmError = refused?.fields?.confirm;
  const reasonError = refused?.fields?.reason;
  const error =
    refused && !confirmError && !reasonError
      ? { code: refused.code, message: refused.message }
      : m.error
        ? { code: 'Error', message: m.error.message }
        : null;
  return { pending: m.isPending, done: !!m.data?.ok, confirmError, reasonError, error };
}
