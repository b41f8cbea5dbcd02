import type { BulkAction, BulkFilter, BulkJobView, BulkState } from '@/lib/bulk/schema';
import type { BrokerModel } from '@/lib/brokers/schema';
import type { ToastSpec } from '@/lib/client/outcome-toasts';
import { revokeWords, taskWords } from '@/components/jobs/task-words';
import { describeRange } from '@/lib/brokers/time-range';

export interface BulkText {
  verb: string;
  past: string;
  what: string;
  whats: string;
  danger: boolean;
}

/** The console's words for each bulk action; `bulkText` puts the system's own in. */
export const BULK_TEXT: Record<BulkAction, BulkText> = {
  replay: {
    verb: 'Replay',
    past: 'replayed',
    what: 'dead letter',
    whats: 'dead letters',
    danger: false,
  },
  discard: { verb: 'Discard', past: 'discarded', what: 'dead letter', whats: 'dead letters', danger: true },
  move: { verb: 'Move', past: 'moved', what: 'dead letter', whats: 'dead letters', danger: false },
  'move-waiting': { verb: 'Move', past: 'moved', what: 'waiting task', whats: 'waiting tasks', danger: false },
  revoke: {
    verb: 'Revoke',
    past: 'revoked',
    what: 'task',
    whats: 'tasks',
    danger: true,
  },
};

/** A bulk action's words on this system: a revoke is SDJ's and QueueFlow's cancel of jobs. */
export function bulkText(a: BulkAction, model: BrokerModel | undefined | null): BulkText {
  const t = taskWords(model);
  if (a === 'move-waiting') return { ...BULK_TEXT[a], what: `waiting ${t.noun}`, whats: `waiting ${t.nouns}` };
  if (a !== 'revoke') return BULK_TEXT[a];
  return { ...BULK_TEXT.revoke, ...revokeWords(model), what: t.noun, whats: t.nouns };
}

export const noun = (t: BulkText, n: number) => (n === 1 ? t.what : t.whats);

export const STATE_LABEL: Record<BulkState, string> = {
  queued: 'waiting for confirmation',
  running: 'running',
  paused: 'paused',
  cancelled: 'cancelled',
  done: 'done',
  failed: 'failed',
};

/** "queue bulk-a, task x.y, search "boom"": the filter as the operator set it (text only). */
export function describeFilter(f: BulkFilter, nouns = 'tasks'): string {
  const parts: string[] = [];
  if (f.state) parts.push(`${f.state} ${nouns}`);
  if (f.queue) parts.push(`queue ${f.queue}`);
  if (f.task) parts.push(`task ${f.task}`);
  if (f.id) parts.push(`id starting ${f.id}`);
  if (f.q) parts.push(`search "${f.q}"`);
  if (f.group !== undefined) parts.push(`error group ${f.group}`);
  const range = describeRange(f);
  // A task job's range is of enqueued times (it names a state); a dead-letter job's, of died times.
  if (range) parts.push(`${f.state !== undefined ? 'enqueued' : 'died'} ${range}`);
  if (f.to) parts.push(`to broker ${f.to}`);
  return parts.length ? parts.join(', ') : 'no filter (every queue)';
}

/** The toast when a job stops: what was done, and what was not, in one line. */
export function toastForBulkEnd(job: BulkJobView, model?: BrokerModel | null): ToastSpec {
  const p = job.progress;
  const t = bulkText(job.action, model);
  const rest = [
    p.skipped ? `${p.skipped.toLocaleString('en-US')} skipped (changed since the snapshot)` : '',
    p.failed ? `${p.failed.toLocaleString('en-US')} failed` : '',
    p.total > p.processed ? `${(p.total - p.processed).toLocaleString('en-US')} not reached (${job.state})` : '',
    job.error ? `stopped: ${job.error.message}` : '',
  ].filter(Boolean);
  return {
    tone: p.failed || job.error ? 'error' : rest.length ? 'info' : 'success',
    title: `${p.succeeded.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} ${t.whats} ${t.past}`,
    body: rest.length ? rest.join('; ') : undefined,
  };
}
