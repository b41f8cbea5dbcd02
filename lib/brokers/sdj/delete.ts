import 'server-only';
import { idParam } from './db';
import type { SdjOutcome } from './model';
import type { SdjStore } from './store';
import { collectSubtree, deleteSubtree } from './subtree';
import { inList, outcome, perId, Refusal } from './tx';

// Delete: the library's `DeleteJob`, and `DeleteWorkflowSubtree` for a workflow parent
// (docs/systems/simple-durable-jobs.md, "Writes" §4), with the library's fan-out guards: a
// workflow parent is deleted only with its subtree, and a sub-job only once its parent is
// terminal, so no checkpoints or children are orphaned. The library has no status check; the
// console refuses a job a worker is running (and a subtree with one), like every other write.
// `deadOnly` (a discard): a job that is not a dead letter (replayed meanwhile) is left alone.

export async function deleteJobs(
  store: SdjStore,
  ids: readonly string[],
  opts: { subtree?: boolean; deadOnly?: boolean } = {},
): Promise<SdjOutcome[]> {
  await store.requireWritable();
  const db = store.db;
  return perId(db, ids, async (q, id) => {
    const p = idParam(db.dialect, id);
    const [row] = await q.all('SELECT status, locked_by, dead_lettered_at FROM jobs WHERE id = ? FOR UPDATE', [p]);
    if (!row) return outcome(id, 'missing', 'no job with this id: nothing to delete');
    if (opts.deadOnly && (row.dead_lettered_at === null || row.dead_lettered_at === undefined))
      return outcome(id, 'missing', `not a dead letter (the job is ${String(row.status)}): nothing deleted`);
    if (row.status === 'running') return outcome(id, 'running', 'a worker is running it: not deleted');
    const [fo] = await q.all('SELECT COUNT(*) AS n FROM fan_outs WHERE parent_job_id = ?', [p]);
    const isParent = Number(fo?.n ?? 0) > 0;
    if (isParent && !opts.subtree)
      return outcome(id, 'invalid', 'a workflow parent with child jobs is deleted only with its subtree (the library refuses it too)');
    const [live] = await q.all(
      `SELECT COUNT(*) AS n FROM jobs c JOIN fan_outs f ON f.id = c.fan_out_id JOIN jobs pp ON pp.id = f.parent_job_id
        WHERE c.id = ? AND pp.status NOT IN ('completed', 'failed', 'cancelled')`,
      [p],
    );
    if (Number(live?.n ?? 0) > 0) return outcome(id, 'invalid', 'a sub-job cannot be deleted while its fan-out parent is not terminal');
    let removed = 0;
    if (isParent) {
      const tree = await collectSubtree(q, p);
      if (tree.jobs.length) {
        const held = await q.all(
          `SELECT id FROM jobs WHERE id IN ${inList(tree.jobs.length)} AND status = 'running' FOR UPDATE`,
          tree.jobs,
        );
        if (held.length) throw new Refusal('running', `${held.length} job(s) of its subtree are running: nothing deleted`);
      }
      await deleteSubtree(q, tree);
      removed = tree.jobs.length;
    }
    await q.run('DELETE FROM checkpoints WHERE job_id = ?', [p]);
    await q.run('DELETE FROM signals WHERE job_id = ?', [p]);
    await q.run('DELETE FROM jobs WHERE id = ?', [p]);
    return outcome(id, 'ok', removed ? `deleted with ${removed} sub-job(s) of its workflow` : 'deleted');
  });
}
