// What a server action hands back to the browser. Errors travel as data because Next masks
// thrown errors from server actions in production.
import type { ErrorCode } from '@/lib/brokers/errors';

export interface ActionError {
  code: ErrorCode | 'PayloadTooLarge';
  message: string;
  fields?: Record<string, string>;
}

export type ActionResponse<T> = { ok: true; data: T } | { ok: false; error: ActionError };
