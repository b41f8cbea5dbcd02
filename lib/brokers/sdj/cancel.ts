import 'server-only';
import type { SdjStore } from './store';
import { idParam, type SdjQuery } from './db';
import type { SdjOutcome } from './model';
import { collectSubtree } from './subtree';
import { inList, outcome, perId } from './tx';

// Cancel: the library's `Queue.CancelJob` → `CancelJobTerminal` (docs/systems/simple-durable-jobs.md,
// "Writes" §3): one SERIALIZABLE transaction that sets the job `cancelled` with
// `last_error = 'cancelled by user'`, frees its concurrency slots, reconciles its own fan-out's
// counters when it is a sub-job, and cancels its live descendants fan-out by fan-out. The
// console cancels pending and waiting jobs only: a running job is refused with `running` (the
// library would cancel it and leave the running handler to notice). `locked_by`/`locked_until`
// are kept and `dead_lettered_at` stays NULL, as the library does. The library's post-commit Go
// step (advance a sub-job's fan-out and resume its parent) is not repeated here: the workers'
// fan-out recovery does it (after `FanOutRecoveryStaleAge`, 2 min by default).

/** Id order, as the library walks fan-outs ("for each F in id order"): bytes on MySQL, text on PostgreSQL. */
const byId = (a: unknown, b: unknown) =>
  Buffer.isBuffer(a) && Buffer.isBuffer(b) ? Buffer.compare(a, b) : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;

const LIVE = "('pending', 'waiting', 'running')";

async function reconcileCounts(q: SdjQuery, fanOut: unknown, now: Date): Promise<void> {
  const rows = await q.all(
    "SELECT status, COUNT(*) AS n FROM jobs WHERE fan_out_id = ? AND status IN ('completed', 'failed', 'cancelled') GROUP BY status",
    [fanOut],
  );
  const n = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  await q.run('UPDATE fan_outs SET completed_count = ?, failed_count = ?, cancelled_count = ?, updated_at = ? WHERE id = ?', [
    n('completed'),
    n('failed'),
    n('cancelled'),
    now,
    fanOut,
  ]);
}

/** Refused as a whole (ReadOnly) unless the ledger shows the verified schema. */
export async function cancelJobs(store: SdjStore, ids: readonly string[]): Promise<SdjOutcome[]> {
  await store.requireWritable();
  const db = store.db;
  const nowSql = db.dialect === 'postgres' ? 'NOW()' : 'NOW(6)';
  const cancelSql = (where: string) =>
    `UPDATE jobs SET status = 'cancelled', completed_at = ${nowSql}, updated_at = ?, last_error = 'cancelled by user' WHERE ${where}`;
  return perId(
    db,
    ids,
    async (q, id) => {
      const p = idParam(db.dialect, id);
      const [row] = await q.all('SELECT status, fan_out_id, locked_by FROM jobs WHERE id = ? FOR UPDATE', [p]);
      if (!row) return outcome(id, 'missing', 'no job with this id');
      const status = String(row.status);
      if (status === 'cancelled') return outcome(id, 'already', 'it is already cancelled');
      if (status === 'running')
        return outcome(
          id,
          'running',
          `a worker is running it${row.locked_by ? ` (${String(row.locked_by)})` : ''}: only pending or waiting jobs are cancelled`,
        );
      if (status !== 'pending' && status !== 'waiting') return outcome(id, 'invalid', `a ${status} job is not cancellable`);
      const now = new Date();
      await q.run(cancelSql("id = ? AND status IN ('pending', 'waiting')"), [now, p]);
      await q.run('DELETE FROM concurrency_slots WHERE job_id = ?', [p]);
      if (row.fan_out_id !== null && row.fan_out_id !== undefined) await reconcileCounts(q, row.fan_out_id, now);
      const tree = await collectSubtree(q, p);
      if (tree.jobs.length) await q.all(`SELECT id FROM jobs WHERE id IN ${inList(tree.jobs.length)} ORDER BY id FOR UPDATE`, tree.jobs);
      let descendants = 0;
      for (const f of [...tree.fanOuts].sort(byId)) {
        const live = (await q.all(`SELECT id FROM jobs WHERE fan_out_id = ? AND status IN ${LIVE} ORDER BY fan_out_index`, [f])).map(
          (r) => r.id,
        );
        if (live.length) {
          descendants += await q.run(cancelSql(`id IN ${inList(live.length)} AND status IN ${LIVE}`), [now, ...live]);
          await q.run(`DELETE FROM concurrency_slots WHERE job_id IN ${inList(live.length)}`, live);
        }
        await reconcileCounts(q, f, now);
        await q.run("UPDATE fan_outs SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'pending'", [now, f]);
      }
      return outcome(id, 'ok', descendants ? `cancelled, with ${descendants} live sub-job(s) of its fan-outs` : 'cancelled');
    },
    { serializable: true },
  );
}
