import 'server-only';
import { buildFamily, referenced, type FamilyNode, type FamilySource } from '@/lib/brokers/family/build';
import type { FamilyStatus, TaskFamily } from '@/lib/brokers/family/schema';
import { idParam, idText, type SdjDb } from './db';
import { requireId } from './jobs';
import { MAX_DEPTH } from './subtree';

// Simple Durable Jobs' fan-out tree: a sub-job names its parent (`parent_job_id`, indexed),
// its workflow's root (`root_job_id`) and its fan-out (`fan_out_id`, `fan_out_index`); the
// fan-out row counts its sub-jobs and the parent waits (status `waiting`) until they are done.
// Members by root are walked down the parent index, level by level, as the library's own
// subtree walk does (at most MAX_DEPTH levels).

const COLS = 'id, type, status, parent_job_id, root_job_id, fan_out_id, fan_out_index, dead_lettered_at';
const STATUS: Record<string, FamilyStatus> = {
  pending: 'waiting',
  paused: 'waiting',
  waiting: 'waiting',
  running: 'running',
  completed: 'succeeded',
  failed: 'failed',
  cancelled: 'revoked',
};

function nodeOf(r: Record<string, unknown>): FamilyNode {
  const id = idText(r.id) ?? '';
  const dead = r.dead_lettered_at !== null && r.dead_lettered_at !== undefined;
  const status = String(r.status);
  const parentId = idText(r.parent_job_id);
  const fanOut = idText(r.fan_out_id);
  return {
    ...referenced(id, typeof r.type === 'string' ? r.type : null, parentId),
    status: dead ? 'dead' : (STATUS[status] ?? 'unknown'),
    state: status,
    link: dead ? 'dead' : 'task',
    rootId: idText(r.root_job_id) ?? (parentId === null ? id : null),
    groupId: fanOut,
    groupIndex: r.fan_out_index === null || r.fan_out_index === undefined ? null : Number(r.fan_out_index),
    // The parent resumes once its fan-out is done: it is what a failed sub-job holds back.
    chord: fanOut && parentId ? { size: null, callbackId: parentId, callbackTask: null } : null,
  };
}

const inList = (n: number) => `(${Array.from({ length: n }, () => '?').join(', ')})`;

export async function sdjFamily(db: SdjDb, rawId: string, limit: number): Promise<TaskFamily | null> {
  const p = (id: string) => idParam(db.dialect, id);
  const src: FamilySource = {
    async node(id) {
      let clean: string;
      try {
        clean = requireId(id);
      } catch {
        return null;
      }
      const [r] = await db.all(`SELECT ${COLS} FROM jobs WHERE id = ?`, [p(clean)]);
      return r ? nodeOf(r) : null;
    },
    async byRoot(rootId, cap) {
      const nodes: FamilyNode[] = [];
      let frontier: unknown[] = [p(rootId)];
      for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
        const left = cap + 1 - nodes.length;
        if (left <= 0) break;
        const rows = await db.all(
          `SELECT ${COLS} FROM jobs WHERE parent_job_id IN ${inList(frontier.length)} ORDER BY fan_out_index, id LIMIT ${left}`,
          frontier,
        );
        nodes.push(...rows.map(nodeOf));
        frontier = rows.map((r) => r.id).slice(0, 1000);
      }
      return { nodes: nodes.slice(0, cap), more: nodes.length > cap };
    },
    async byGroup(groupId, cap) {
      const rows = await db.all(`SELECT ${COLS} FROM jobs WHERE fan_out_id = ? ORDER BY fan_out_index, id LIMIT ${cap + 1}`, [p(groupId)]);
      return { nodes: rows.slice(0, cap).map(nodeOf), more: rows.length > cap };
    },
    async chord(groupId) {
      const [f] = await db.all(
        'SELECT total_count, completed_count, failed_count, cancelled_count, strategy, status FROM fan_outs WHERE id = ?',
        [p(groupId)],
      );
      if (!f) return null;
      const failed = Number(f.failed_count ?? 0);
      return {
        kind: 'fan-out',
        total: Number(f.total_count),
        done: Number(f.completed_count ?? 0) + failed + Number(f.cancelled_count ?? 0),
        failed,
        note: `strategy ${String(f.strategy ?? 'fail_fast')}, fan-out ${String(f.status ?? 'pending')}`,
      };
    },
    words: {
      chordBlocked:
        "the fan-out's parent waits (status waiting) until its sub-jobs are done; by the fan-out's strategy a failed sub-job fails the fan-out (fail_fast) or is counted (collect_all, threshold). A sub-job is not replayed alone (the library requeues the parent, which runs its fan-out again): replay the parent, or delete the workflow with its subtree",
      chainBlocked: 'the job it would start next waits on it',
    },
    unseen: [
      'Every member is a row of the jobs table until it is deleted: finished sub-jobs stay, so the whole tree is seen, walked down the parent index at most 256 levels and the family limit.',
    ],
  };
  requireId(rawId);
  return buildFamily(src, rawId.toLowerCase(), limit);
}
