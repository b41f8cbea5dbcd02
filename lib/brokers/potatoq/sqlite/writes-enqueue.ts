import 'server-only';
import type Database from 'better-sqlite3';
import type { EnqueueRequest, EnqueueResult } from '@/lib/brokers/schema';
import { buildFromRequest } from '../records';
import { INSERT_JOB } from './writes';

/**
 * potatoq's `enqueue` (`_job_row` + `_INSERT`): state 0 with `run_at = eta` when the eta is
 * in the future, else state 1 with `run_at = now`; `created_at = now`; REAL epoch seconds.
 * The message is built (and validated) before the write lock is taken.
 */
export function enqueueMessage(db: Database.Database, brokerId: string, req: EnqueueRequest): EnqueueResult {
  const now = Date.now() / 1000;
  const m = buildFromRequest(req, now);
  const scheduled = m.eta !== null && m.eta > now;
  db.transaction(() => {
    db.prepare(INSERT_JOB).run(m.id, m.queue, m.task, scheduled ? 0 : 1, BigInt(m.priority), scheduled ? m.eta : now, now, m.json);
  }).immediate();
  return { brokerId, id: m.id, queue: m.queue, task: m.task, state: scheduled ? 'scheduled' : 'ready', payload: m.json };
}
