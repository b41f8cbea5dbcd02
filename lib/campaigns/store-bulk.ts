import 'server-only';
import type { SqlRunner } from '@/lib/state/sql';
import { moveScope, type BulkCampaignJob, type Campaign, type NewCampaign } from './schema';

// A bulk job's campaign, made when the job starts and grown as it goes: its id is the job's
// (`cmp-<job id>`), so every console that runs the job (a restart, a takeover) finds the same
// campaign, and each task is one row keyed by its place in the job's pinned snapshot, so a
// batch appended twice (a console that stopped after appending, before saving its progress)
// adds nothing. Each append is one statement per APPEND_ROWS rows: the writes per batch are
// bounded by the batch, never by the campaign.

const APPEND_ROWS = 200;
/** An item row's columns, and the values of one not looked at yet after its first five. */
export const ITEM_COLS = 'campaign, n, task_id, before_fp, source_id, fate, same, fp, state, detail, followed, at, checked_ms, settled';
export const NEW_ITEM = "'pending', NULL, NULL, NULL, '', NULL, NULL, 0, 0";
const SCOPE_IDS = 20;

/** A task the job replayed without a refusal: its place in the snapshot and its id; a moved
 *  task's id on the broker it came from (`from`: then `id` is its id there). */
export interface ActedItem {
  n: number;
  id: string;
  from?: string;
  /** What the broker answered, where the job's campaign needs more than the id: the id it gave
   *  the task where it differs, and whether the task was there already (a move that an earlier
   *  attempt had finished on the target). */
  taskId?: string;
  already?: true;
}

export const bulkCampaignId = (jobId: string) => `cmp-${jobId}`;

export function bulkCampaignMethods(db: SqlRunner) {
  async function readScope(id: string): Promise<Campaign['scope'] | null> {
    const r = (await db.all<{ scope: string }>('SELECT scope FROM console_campaigns WHERE id = ?', [id]))[0];
    return r ? (JSON.parse(r.scope) as Campaign['scope']) : null;
  }

  return {
    /**
     * The campaign of bulk job `job.id` over its `count` pinned tasks, with no item yet; nothing
     * when it exists already (a console that took the job over). Its id.
     */
    async openBulk(c: NewCampaign, job: BulkCampaignJob, count: number, off: string | null): Promise<string> {
      const id = bulkCampaignId(job.id);
      const scope: Campaign['scope'] = { ids: [], filter: c.filter, count, job, ...moveScope(c) };
      await db.run(
        `INSERT INTO console_campaigns (id, broker, action, created_at, who, reason, audit_id, parent, scope, total, follow_state, follow_why, followed_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT (id) DO NOTHING`,
        [
          id,
          c.broker,
          c.action,
          new Date().toISOString(),
          c.who,
          c.reason,
          c.auditId,
          c.parent,
          JSON.stringify(scope),
          count,
          off ? 'off' : 'following',
          off,
        ],
      );
      return id;
    },

    /** Adds the tasks one batch replayed; a task already in the campaign is not added again. */
    async appendBulk(id: string, items: readonly ActedItem[], before: string | null): Promise<void> {
      if (!items.length) return;
      const steps: Array<readonly [string, unknown[]]> = [];
      for (let i = 0; i < items.length; i += APPEND_ROWS) {
        const chunk = items.slice(i, i + APPEND_ROWS);
        steps.push([
          `INSERT INTO console_campaign_items (${ITEM_COLS})
           VALUES ${chunk.map(() => `(?, ?, ?, ?, ?, ${NEW_ITEM})`).join(', ')}
           ON CONFLICT (campaign, n) DO NOTHING`,
          chunk.flatMap((it) => [id, it.n, it.id, before, it.from ?? null]),
        ]);
      }
      await db.batch(steps);
      // The scope names the first tasks: filled in by the first appends only.
      const scope = await readScope(id);
      if (!scope || scope.ids.length >= SCOPE_IDS) return;
      const first = await db.all<{ task_id: string }>('SELECT task_id FROM console_campaign_items WHERE campaign = ? ORDER BY n LIMIT ?', [
        id,
        SCOPE_IDS,
      ]);
      await db.run('UPDATE console_campaigns SET scope = ? WHERE id = ?', [
        JSON.stringify({ ...scope, ids: first.map((r) => r.task_id) }),
        id,
      ]);
    },

    /**
     * Records how the job stands. A job running again (a failed one resumed) reopens a campaign
     * whose follow-up had settled: more tasks are coming.
     */
    async setBulkJob(id: string, job: BulkCampaignJob): Promise<void> {
      const scope = await readScope(id);
      if (!scope) return;
      await db.run(
        `UPDATE console_campaigns SET scope = ?,
           follow_state = CASE WHEN ? = 'running' AND follow_state = 'settled' THEN 'following' ELSE follow_state END WHERE id = ?`,
        [JSON.stringify({ ...scope, job }), job.state, id],
      );
    },
  };
}
