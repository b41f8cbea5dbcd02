import 'server-only';

// SDJ's own vocabulary, as docs/systems/simple-durable-jobs.md records it for v4.5.1.

/** The seven statuses the library writes. `chk_jobs_status` also admits `retrying`, which no
 *  storage path of v4.5.1 writes: a row carrying it (or anything else) is counted under `other`. */
export const SDJ_STATUSES = ['pending', 'running', 'waiting', 'paused', 'completed', 'failed', 'cancelled'] as const;
export type SdjStatus = (typeof SDJ_STATUSES)[number];
export const isSdjStatus = (s: string): s is SdjStatus => (SDJ_STATUSES as readonly string[]).includes(s);

export const TERMINAL: readonly SdjStatus[] = ['completed', 'failed', 'cancelled'];

/** Per-id result of a write. `running`: a worker holds the job; `conflict`: another transaction
 *  holds the row or a unique key is taken; `already`: the write's end state is already there. */
export type SdjOutcomeKind = 'ok' | 'missing' | 'running' | 'conflict' | 'invalid' | 'already';
export interface SdjOutcome {
  id: string;
  outcome: SdjOutcomeKind;
  message: string;
}

/** A dead-letter reason as the library computes it: `<label>: <error>` (or the label alone). */
export function splitReason(reason: string | null): { label: string | null; error: string | null } {
  if (!reason) return { label: null, error: null };
  const at = reason.indexOf(': ');
  return at < 0 ? { label: reason, error: null } : { label: reason.slice(0, at), error: reason.slice(at + 2) };
}

/** NULL and '' both mean "unset" (raw-SQL rows have NULL, the Go API writes ''). */
export const unset = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
