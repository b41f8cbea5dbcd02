// Turns what an action answered into the toasts the operator sees: one per task for small
// actions (so every id's fate is visible without opening anything), a summary plus the first
// failures for large ones. Pure, so it is unit-tested without a browser.
import type { ActionResponse } from '@/lib/actions/response';
import type { ActionResult, EnqueueResult, PurgeResult, QueuePauseResult } from '@/lib/brokers/schema';

export interface ToastSpec {
  tone: 'success' | 'error' | 'info';
  title: string;
  /** Plain text: rendered as a text node, never as markup. */
  body?: string;
}

/** Up to this many ids, each gets its own toast. */
export const PER_TASK_TOASTS = 5;
/** Failures listed one by one after a summary; the dialog's outcome panel has the rest. */
export const MAX_FAILURE_TOASTS = 3;

/** How each action's success reads ("3 of 4 replayed"). */
export const PAST: Record<ActionResult['action'], string> = {
  replay: 'replayed',
  discard: 'discarded',
  revoke: 'revoked',
  purge: 'purged',
  enqueue: 'enqueued',
  move: 'moved',
};

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

export function isActionResult(d: unknown): d is ActionResult {
  return !!d && typeof d === 'object' && Array.isArray((d as ActionResult).succeeded) && Array.isArray((d as ActionResult).failed);
}
function isPurge(d: unknown): d is PurgeResult {
  return !!d && typeof d === 'object' && typeof (d as PurgeResult).removed === 'number';
}
function isPause(d: unknown): d is QueuePauseResult {
  return (
    !!d && typeof d === 'object' && typeof (d as QueuePauseResult).paused === 'boolean' && typeof (d as QueuePauseResult).queue === 'string'
  );
}
function isEnqueue(d: unknown): d is EnqueueResult {
  return !!d && typeof d === 'object' && typeof (d as EnqueueResult).payload === 'string' && typeof (d as EnqueueResult).id === 'string';
}

function failureToast(verb: string, f: { id: string; outcome: string; message: string }): ToastSpec {
  // Done before (QueueFlow: "already replayed as job X"): nothing failed, nothing to retry.
  if (f.outcome === 'already') return { tone: 'info', title: `${f.id}: done before, not ${verb} again`, body: f.message };
  return { tone: 'error', title: `${f.id}: not ${verb} (${f.outcome})`, body: f.message };
}

export function toastsForResult(r: ActionResult, verb = PAST[r.action]): ToastSpec[] {
  if (r.requested <= PER_TASK_TOASTS) {
    return [
      ...r.succeeded.map((s): ToastSpec => ({ tone: 'success', title: `${s.id}: ${verb}`, body: s.message || undefined })),
      ...r.failed.map((f) => failureToast(verb, f)),
    ];
  }
  const out: ToastSpec[] = [
    {
      tone: r.failed.length ? (r.succeeded.length ? 'info' : 'error') : 'success',
      title: `${r.succeeded.length.toLocaleString('en-US')} of ${plural(r.requested, 'task')} ${verb}`,
      body: r.failed.length ? `${r.failed.length.toLocaleString('en-US')} not ${verb}; each one is listed in the dialog.` : undefined,
    },
  ];
  for (const f of r.failed.slice(0, MAX_FAILURE_TOASTS)) out.push(failureToast(verb, f));
  return out;
}

/**
 * What to toast for any action's answer. Field errors are shown inline next to their field,
 * so they get no toast; other refusals (not signed in, broker down, conflicts) do.
 */
export function toastsFor(res: ActionResponse<unknown>, verb?: string): ToastSpec[] {
  if (!res.ok) {
    if (res.error.fields && Object.keys(res.error.fields).length) return [];
    return [{ tone: 'error', title: `Refused: ${res.error.code}`, body: res.error.message }];
  }
  const d = res.data;
  if (isActionResult(d)) return toastsForResult(d, verb);
  if (isPurge(d)) return [{ tone: 'success', title: `Purged ${plural(d.removed, 'waiting task')} from queue ${d.queue}` }];
  if (isPause(d)) return [{ tone: 'success', title: `Queue ${d.queue} ${d.paused ? 'paused' : 'resumed'}` }];
  if (isEnqueue(d))
    return d.outcome && d.outcome.outcome !== 'ok'
      ? [failureToast('enqueued', d.outcome)]
      : [{ tone: 'success', title: `${d.id}: enqueued as ${d.state}`, body: `${d.task} in queue ${d.queue}` }];
  return [];
}
