import 'server-only';
import type Database from 'better-sqlite3';
import type { Step } from './writes';
import { revokedRecord } from '../records';

/** potatoq's `_store` upsert. */
export const STORE_RESULT =
  'INSERT INTO potatoq_results (id, state, payload, expires_at) VALUES (?, ?, ?, ?) ' +
  'ON CONFLICT (id) DO UPDATE SET state = excluded.state, payload = excluded.payload, expires_at = excluded.expires_at';

/**
 * potatoq's `revoke`: delete the waiting row (never a running one) and store REVOKED, also
 * for ids it doesn't know. Unlike potatoq we write nothing for a running task: its mark would
 * be overwritten by the task's own result, so reporting it as revoked would mislead.
 */
export function revokeStep(db: Database.Database, resultExpires: number): Step {
  const del = db.prepare('DELETE FROM potatoq_jobs WHERE id = ? AND state != 2 RETURNING task').pluck();
  const running = db.prepare('SELECT 1 FROM potatoq_jobs WHERE id = ? AND state = 2').pluck();
  const dead = db.prepare('SELECT 1 FROM potatoq_dead WHERE id = ?').pluck();
  const store = db.prepare(STORE_RESULT);
  return (id, now) => {
    const task = del.get(id) as string | undefined;
    if (task === undefined && running.get(id) !== undefined) {
      return { id, outcome: 'running', message: 'is running; potatoq never revokes running tasks, so nothing was changed' };
    }
    store.run(id, 'REVOKED', revokedRecord(id, now, task ?? null), now + resultExpires);
    if (task !== undefined) return { id, outcome: 'ok', message: 'removed from the queue and marked REVOKED' };
    if (dead.get(id) !== undefined) {
      return {
        id,
        outcome: 'ok',
        message: 'is a dead letter, not waiting: marked REVOKED as potatoq does (the letter stays; discard it to remove it)',
      };
    }
    return { id, outcome: 'ok', message: 'no waiting task with this id; marked REVOKED anyway, as potatoq does' };
  };
}
