import 'server-only';
import type Database from 'better-sqlite3';
import type { TaskCall } from '@/lib/brokers/types';
import { alreadyHere, messageOfCall } from '../calls';
import { INSERT_JOB } from './writes';

/**
 * A call from another broker written as `potatoq call` writes it, under its own id, ready now;
 * in one `BEGIN IMMEDIATE` with the check that no task with the id is waiting, running, dead or
 * finished here (the check that makes a retried move `already` instead of a second run).
 */
export function importCall(db: Database.Database, call: TaskCall): { outcome: 'ok' | 'already'; message: string } {
  const now = Date.now() / 1000;
  const m = messageOfCall(call, now);
  return db
    .transaction(() => {
      const there = findCall(db, m.id);
      if (there) return { outcome: 'already' as const, message: there };
      db.prepare(INSERT_JOB).run(m.id, m.queue, m.task, 1, BigInt(m.priority), now, now, m.json);
      return { outcome: 'ok' as const, message: `enqueued on ${m.queue} as ${m.task}` };
    })
    .immediate();
}

/** Whether a task with this id is waiting, running, dead or finished here (importCall's check). */
export function findCall(db: Database.Database, id: string): string | null {
  const job = db.prepare('SELECT state FROM potatoq_jobs WHERE id = ?').pluck().get(id) as number | undefined;
  const dead = db.prepare('SELECT 1 FROM potatoq_dead WHERE id = ?').pluck().get(id) !== undefined;
  const result = db.prepare('SELECT state FROM potatoq_results WHERE id = ?').pluck().get(id) as string | undefined;
  return alreadyHere({ job: job ?? null, dead, result: result ?? null });
}
