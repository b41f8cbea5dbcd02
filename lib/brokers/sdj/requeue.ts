import 'server-only';
import type { SdjStore } from './store';
import { idParam, type Row, type SdjQuery } from './db';
import type { SdjDialect } from './url';
import type { SdjOutcome } from './model';
import { collectSubtree, deleteSubtree } from './subtree';
import { outcome, perId } from './tx';

// Replay: the library's `Queue.Requeue` / `GormStorage.RetryJob` (`applyRequeueResetTx`),
// statement by statement (docs/systems/simple-durable-jobs.md, "Writes" §2), with what the
// library leaves out for a console that may race a worker or another console: the row is
// locked (`FOR UPDATE`, waiting at most the store's lock wait) and the UPDATE keeps the status
// condition. Kept as they were: args, type, queue, priority, max_retries, timeout, tenant,
// metadata, unique_key, previous_status, last_heartbeat_at; the id is reused.

const REQUEUE = `UPDATE jobs SET status = 'pending', attempt = 0, last_error = '', dead_lettered_at = NULL,
  dead_letter_reason = '', result = NULL, locked_by = '', locked_until = NULL, started_at = NULL,
  completed_at = NULL, run_at = NULL, dq_ready = true, updated_at = ?
  WHERE id = ? AND status IN ('failed', 'cancelled')`;

/** Refused as a whole (ReadOnly) unless the ledger shows the verified schema. */
export async function requeueJobs(store: SdjStore, ids: readonly string[]): Promise<SdjOutcome[]> {
  await store.requireWritable();
  const db = store.db;
  const keys = new Map<string, string>();
  return perId(db, ids, (q, id) => requeueLocked(q, db.dialect, id, undefined, keys), {
    onUnique: (id) =>
      outcome(id, 'conflict', `a live job holds unique key "${keys.get(id) ?? ''}", which this job keeps when replayed: nothing changed`),
  });
}

/**
 * One id's Requeue inside its transaction: the row locked, the library's checks, then `edit`
 * (edit-and-replay: it may write the row's args, queue and priority under the same lock, or
 * answer an outcome to stop with nothing written; it gets the row with type, queue, priority and
 * args), then the library's statements. `keys` collects the unique key of each id requeued.
 */
export async function requeueLocked(
  q: SdjQuery,
  dialect: SdjDialect,
  id: string,
  edit?: (row: Row) => Promise<SdjOutcome | null>,
  keys?: Map<string, string>,
): Promise<SdjOutcome> {
  const p = idParam(dialect, id);
  const more = edit ? ', type, queue, priority, args' : '';
  const [row] = await q.all(`SELECT status, fan_out_id, unique_key, locked_by${more} FROM jobs WHERE id = ? FOR UPDATE`, [p]);
  if (!row) return outcome(id, 'missing', 'no job with this id (deleted, or purged by retention)');
  const status = String(row.status);
  if (row.fan_out_id !== null && row.fan_out_id !== undefined)
    return outcome(id, 'invalid', 'a fan-out sub-job cannot be requeued directly; requeue its parent (the library refuses it too)');
  if (status === 'running')
    return outcome(id, 'running', `a worker is running it${row.locked_by ? ` (${String(row.locked_by)})` : ''}: nothing to replay`);
  if (status === 'pending' || status === 'waiting' || status === 'paused')
    return outcome(id, 'already', `it is already ${status} (replayed, or never failed): nothing changed`);
  if (status !== 'failed' && status !== 'cancelled') return outcome(id, 'invalid', `cannot retry job with status "${status}"`);
  if (row.unique_key) keys?.set(id, String(row.unique_key));
  const stop = edit ? await edit(row) : null;
  if (stop) return stop;
  await q.run(REQUEUE, [new Date(), p]);
  await q.run('DELETE FROM checkpoints WHERE job_id = ?', [p]);
  await deleteSubtree(q, await collectSubtree(q, p));
  return outcome(id, 'ok', 'back to pending from attempt 0, with the same id and args');
}
