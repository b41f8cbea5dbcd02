import 'server-only';
import { idParam, idText, isoOf, type SdjDb } from './db';
import { requireId, toSummary, type SdjJobSummary } from './jobs';
import { splitReason, unset } from './model';
import { decodePayload, type SdjPayload } from './payload';

// One job with everything an operator asks about: args decoded, attempts, error, lock holder,
// lease and heartbeat, checkpoints, fan-out parent and children, result, unique key. Children
// are read through `idx_jobs_parent_job_id` and capped (a fan-out may have thousands).

export const MAX_CHILDREN = 1000;

export interface SdjCheckpoint {
  id: string;
  callIndex: number;
  callType: string;
  result: SdjPayload | null;
  error: string | null;
  errorKind: string | null;
  createdAt: string | null;
}

export interface SdjFanOut {
  id: string;
  totalCount: number;
  completedCount: number;
  failedCount: number;
  cancelledCount: number;
  strategy: string | null;
  status: string | null;
}

export interface SdjJobDetail extends SdjJobSummary {
  args: SdjPayload | null;
  /** `args` as stored (the raw text the detail page shows), null when NULL. */
  argsBytes: Buffer | null;
  result: SdjPayload | null;
  reasonError: string | null;
  tenant: string | null;
  metadata: string | null;
  timeoutNs: string;
  previousStatus: string | null;
  lockedUntil: string | null;
  lastHeartbeatAt: string | null;
  updatedAt: string | null;
  uniqueKey: string | null;
  rootJobId: string | null;
  fanOutIndex: number | null;
  checkpoints: SdjCheckpoint[];
  /** Fan-outs this job started (it is their parent). */
  fanOuts: SdjFanOut[];
  /** Ids of the sub-jobs whose parent this is, by fan-out index; capped at MAX_CHILDREN. */
  childIds: string[];
  childrenTruncated: boolean;
}

export async function getJob(db: SdjDb, rawId: string): Promise<SdjJobDetail | null> {
  const id = idParam(db.dialect, requireId(rawId));
  const [r] = await db.all('SELECT * FROM jobs WHERE id = ?', [id]);
  if (!r) return null;
  const cps = await db.all(
    'SELECT id, call_index, call_type, result, error, error_kind, created_at FROM checkpoints WHERE job_id = ? ORDER BY call_index, call_type',
    [id],
  );
  const fos = await db.all(
    'SELECT id, total_count, completed_count, failed_count, cancelled_count, strategy, status FROM fan_outs WHERE parent_job_id = ? ORDER BY created_at, id',
    [id],
  );
  const kids = await db.all(`SELECT id FROM jobs WHERE parent_job_id = ? ORDER BY fan_out_index, id LIMIT ${MAX_CHILDREN + 1}`, [id]);
  const reason = unset(r.dead_letter_reason);
  return {
    ...toSummary(r),
    args: decodePayload(r.args),
    argsBytes: r.args === null || r.args === undefined ? null : Buffer.isBuffer(r.args) ? r.args : Buffer.from(String(r.args), 'utf8'),
    result: decodePayload(r.result),
    reasonError: splitReason(reason).error,
    tenant: unset(r.tenant),
    metadata: unset(r.metadata),
    timeoutNs: String(r.timeout),
    previousStatus: unset(r.previous_status),
    lockedUntil: isoOf(r.locked_until),
    lastHeartbeatAt: isoOf(r.last_heartbeat_at),
    updatedAt: isoOf(r.updated_at),
    uniqueKey: unset(r.unique_key),
    rootJobId: idText(r.root_job_id),
    fanOutIndex: r.fan_out_index === null || r.fan_out_index === undefined ? null : Number(r.fan_out_index),
    checkpoints: cps.map((c) => ({
      id: idText(c.id) ?? '',
      callIndex: Number(c.call_index),
      callType: String(c.call_type),
      result: decodePayload(c.result),
      error: unset(c.error),
      errorKind: unset(c.error_kind),
      createdAt: isoOf(c.created_at),
    })),
    fanOuts: fos.map((f) => ({
      id: idText(f.id) ?? '',
      totalCount: Number(f.total_count),
      completedCount: Number(f.completed_count ?? 0),
      failedCount: Number(f.failed_count ?? 0),
      cancelledCount: Number(f.cancelled_count ?? 0),
      strategy: unset(f.strategy),
      status: unset(f.status),
    })),
    childIds: kids.slice(0, MAX_CHILDREN).map((k) => idText(k.id) ?? ''),
    childrenTruncated: kids.length > MAX_CHILDREN,
  };
}
