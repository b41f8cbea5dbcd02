import 'server-only';
import type { DeadDetail, DeadSummary, PayloadPreview, ResultRecordDto, TaskDetail, TaskSummary } from '@/lib/brokers/schema';
import { fingerprintError, type Fingerprint } from '@/lib/triage/fingerprint';
import { parsePythonError } from '@/lib/triage/python-traceback';
import type { SdjJobDetail } from './detail';
import type { SdjJobSummary } from './jobs';
import { jobView, payloadValue, rawOf } from './message';
import { splitReason } from './model';

// SDJ rows -> the contract's summaries and details: tasks, dead letters, finished jobs.

const EMPTY: PayloadPreview = { kind: 'native', text: '' };

export function toTaskSummary(j: SdjJobSummary, preview: PayloadPreview = EMPTY): TaskSummary {
  const running = j.status === 'running';
  return {
    id: j.id,
    queue: j.queue,
    task: j.type,
    state: j.status,
    priority: String(j.priority),
    // A pending job is due at its run_at, else at once (the library's COALESCE(run_at, created_at)).
    runAt: j.status === 'pending' ? (j.runAt ?? j.createdAt) : j.runAt,
    createdAt: j.createdAt,
    claimedAt: running ? j.startedAt : null,
    times: { completedAt: j.completedAt, startedAt: j.startedAt },
    // The worker that claimed it: `locked_by` while running (the library clears it to '' after).
    worker: running ? j.lockedBy : null,
    pid: null,
    deliveries: String(j.attempt),
    preview,
    seq: j.id,
  };
}

/** The error a dead letter died of: the reason without the library's label, else `last_error`. */
export function errorOf(j: Pick<SdjJobSummary, 'deadLetterReason' | 'lastError'>): string {
  const { label, error } = splitReason(j.deadLetterReason);
  return error ?? j.lastError ?? label ?? '';
}

/** The last line of the error, as the list shows it; the label when there is no error text. */
export function summaryOf(j: Pick<SdjJobSummary, 'deadLetterReason' | 'lastError' | 'reasonLabel'>): string {
  const lines = errorOf(j)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? j.reasonLabel ?? '';
}

/** A letter's triage fingerprint: its error as the grouping parses any error text (a Go error is
 *  one line, `pkg: message`); without a type, the library's label stands in for one. */
export function letterFingerprint(j: Pick<SdjJobSummary, 'deadLetterReason' | 'lastError' | 'reasonLabel'>): Fingerprint {
  const parts = parsePythonError(errorOf(j));
  return fingerprintError({ ...parts, type: parts.type ?? j.reasonLabel });
}

export function toDeadSummary(j: SdjJobSummary, preview: PayloadPreview = EMPTY): DeadSummary {
  return {
    id: j.id,
    queue: j.queue,
    task: j.type,
    summary: summaryOf(j),
    diedAt: j.deadLetteredAt,
    preview,
    // The library's label: "max retries exhausted" or "non-retryable failure".
    cause: j.reasonLabel,
  };
}

/** A finished job as a result record: its stored result, or its last error. */
export function toResult(j: SdjJobDetail): ResultRecordDto {
  const raw = j.result ? (j.result.kind === 'json' ? JSON.stringify(j.result.value) : j.result.base64) : '';
  return {
    id: j.id,
    status: j.status.toUpperCase(),
    record: j.result ? payloadValue(j.result) : null,
    excType: j.reasonLabel,
    excMessage: j.deadLetterReason ? errorOf(j) : j.lastError,
    traceback: null,
    dateDone: j.completedAt,
    expiresAt: null,
    worker: null,
    name: j.type,
    raw,
  };
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export function toTaskDetail(j: SdjJobDetail, preview: PayloadPreview = EMPTY): TaskDetail {
  return {
    ...toTaskSummary(j, preview),
    payload: jobView(j),
    ...rawOf(j.argsBytes),
    result: FINISHED.has(j.status) ? toResult(j) : null,
  };
}

export function toDeadDetail(j: SdjJobDetail, preview: PayloadPreview = EMPTY): DeadDetail {
  return {
    ...toDeadSummary(j, preview),
    reason: errorOf(j) || null,
    payload: jobView(j),
    ...rawOf(j.argsBytes),
    result: toResult(j),
  };
}
