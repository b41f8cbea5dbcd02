import 'server-only';
import type { WorkerInfo } from '@/lib/brokers/schema';
import { idText, isoOf, type SdjDb } from './db';
import { unset } from './model';

// SDJ keeps no worker registry: a worker is known only as the `locked_by` of the jobs it runs.
// The list is derived from running jobs (`idx_jobs_status_created`, at most RUNNING_SCAN of them,
// newest first): one entry per lock holder, its time the newest sign of life among its jobs
// (heartbeat, else claim). It is `dead` past the stale-lock age (the reaper's cutoff), `stale`
// past a third of it (a live worker heartbeats at least that often), else `alive`.

export const RUNNING_SCAN = 2000;

export async function listWorkers(db: SdjDb, staleLockMinutes: number): Promise<WorkerInfo[]> {
  const age = db.dialect === 'postgres' ? 'EXTRACT(EPOCH FROM (NOW() - life))' : 'TIMESTAMPDIFF(MICROSECOND, life, NOW(6)) / 1000000';
  const rows = await db.all(
    `SELECT id, queue, locked_by, life, ${age} AS age FROM (
       SELECT id, queue, locked_by, COALESCE(last_heartbeat_at, started_at, locked_until) AS life
         FROM jobs WHERE status = 'running' ORDER BY created_at DESC LIMIT ${RUNNING_SCAN}) r`,
  );
  const by = new Map<string, WorkerInfo>();
  for (const r of rows) {
    const holder = unset(r.locked_by) ?? '(no lock holder)';
    const ageS = Math.max(0, Number(r.age ?? 0));
    let w = by.get(holder);
    if (!w) {
      w = {
        id: holder,
        hostname: null,
        pid: null,
        queues: [],
        concurrency: null,
        threads: null,
        running: [],
        heartbeatAt: isoOf(r.life) ?? '',
        ageSeconds: ageS,
        status: 'alive',
        registered: null,
      };
      by.set(holder, w);
    }
    const queue = String(r.queue);
    if (!w.queues.includes(queue)) w.queues.push(queue);
    w.running.push(idText(r.id) ?? '');
    if (ageS < w.ageSeconds) Object.assign(w, { ageSeconds: ageS, heartbeatAt: isoOf(r.life) ?? '' });
  }
  const cutoff = staleLockMinutes * 60;
  return [...by.values()]
    .map((w) => ({ ...w, queues: w.queues.sort(), status: statusOf(w.ageSeconds, cutoff) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const statusOf = (ageS: number, cutoffS: number): WorkerInfo['status'] =>
  ageS > cutoffS ? 'dead' : ageS > cutoffS / 3 ? 'stale' : 'alive';
