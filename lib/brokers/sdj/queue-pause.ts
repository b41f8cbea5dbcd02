import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { SdjOutcome } from './model';
import type { SdjStore } from './store';
import { outcome } from './tx';

// Pause and resume a queue the way the library's `PauseQueue` / `UnpauseQueue` do: a
// `queue_states` row with `paused = true, paused_at = now` (inserted when the queue has none), and
// `paused = false, paused_at = NULL` to resume. Workers re-check it at every claim, so a pause
// stops new claims and leaves running jobs alone. Jobs keep their status (the job-level
// "graceful pause" of pending/waiting jobs is another library operation).

const checkQueue = (queue: string) => {
  if (typeof queue !== 'string' || queue === '' || queue.length > 255)
    throw new ConsoleError('InvalidInput', 'queue: must be 1-255 characters', { queue: 'must be 1-255 characters' });
};

export async function pauseQueue(store: SdjStore, queue: string): Promise<SdjOutcome> {
  checkQueue(queue);
  await store.requireWritable();
  const db = store.db;
  return db.tx(async (q) => {
    const [row] = await q.all('SELECT paused FROM queue_states WHERE queue = ? FOR UPDATE', [queue]);
    if (row && Boolean(Number(row.paused) || row.paused === true)) return outcome(queue, 'already', 'the queue is already paused');
    const now = db.dialect === 'postgres' ? 'NOW()' : 'NOW(3)';
    if (row) await q.run(`UPDATE queue_states SET paused = true, paused_at = ${now}, updated_at = ${now} WHERE queue = ?`, [queue]);
    else await q.run(`INSERT INTO queue_states (queue, paused, paused_at, updated_at) VALUES (?, true, ${now}, ${now})`, [queue]);
    return outcome(queue, 'ok', 'paused: workers claim no new job from it');
  });
}

export async function resumeQueue(store: SdjStore, queue: string): Promise<SdjOutcome> {
  checkQueue(queue);
  await store.requireWritable();
  const now = store.db.dialect === 'postgres' ? 'NOW()' : 'NOW(3)';
  const n = await store.db.run(
    `UPDATE queue_states SET paused = false, paused_at = NULL, updated_at = ${now} WHERE queue = ? AND paused = true`,
    [queue],
  );
  return n ? outcome(queue, 'ok', 'resumed') : outcome(queue, 'already', 'the queue is not paused');
}
