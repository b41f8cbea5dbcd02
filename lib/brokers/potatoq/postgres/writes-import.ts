import 'server-only';
import type { TaskCall } from '@/lib/brokers/types';
import { alreadyHere, messageOfCall } from '../calls';
import { channelFor, type PgNames } from './names';
import type { PgDb, Sql } from './pool';

/** Whether a task with this id is waiting, running, dead or finished here (importCall's check). */
export async function findCall(sql: Sql, n: PgNames, id: string): Promise<string | null> {
  const [seen] = await sql<{ job: number | null; dead: boolean; result: string | null }>(
    `SELECT (SELECT state FROM ${n.jobs} WHERE id = $1) AS job,
            EXISTS (SELECT 1 FROM ${n.dead} WHERE id = $1) AS dead,
            (SELECT state FROM ${n.results} WHERE id = $1) AS result`,
    [id],
  );
  return alreadyHere(seen ?? {});
}

/**
 * A call from another broker written as `potatoq call` writes it, under its own id, ready now
 * (with the NOTIFY that wakes the queue's workers), unless a task with the id is waiting,
 * running, dead or finished here: checked in the same transaction, after a transaction-scoped
 * advisory lock on the id, so two consoles moving the same letter write it once.
 */
export async function importCall(db: PgDb, n: PgNames, call: TaskCall): Promise<{ outcome: 'ok' | 'already'; message: string }> {
  const m = messageOfCall(call);
  return db.tx(async (sql) => {
    await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`potatoq-console-import:${m.id}`]);
    const there = await findCall(sql, n, m.id);
    if (there) return { outcome: 'already' as const, message: there };
    const priority = Math.max(-32768, Math.min(32767, m.priority));
    await sql(
      `WITH ins AS (INSERT INTO ${n.jobs} (id, queue, task, state, priority, run_at, payload)
                    VALUES ($1, $2, $3, 1, $4, now(), $5) ON CONFLICT (id) DO NOTHING RETURNING queue)
       SELECT pg_notify($6, '') FROM ins`,
      [m.id, m.queue, m.task, priority, m.json, channelFor(m.queue)],
    );
    return { outcome: 'ok' as const, message: `enqueued on ${m.queue} as ${m.task}` };
  });
}
