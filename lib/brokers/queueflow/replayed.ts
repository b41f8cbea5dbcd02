import 'server-only';
import type { QfClient } from './client';
import { editKey } from './edit-payload';
import { readJob } from './jobs';
import { collectRows } from './pages';
import { cursorAfter, parseWire, ZJobPage, type QfDeadLetter, type QfJob } from './wire';

// Which job a replayed letter became. QueueFlow records its own replay's job (`replay_job_id`);
// after an edit-replay that copy is cancelled and the job that runs is the edited one, created
// with the letter's Idempotency-Key (edit-payload.ts) right after the copy, with the letter's
// task name (not editable). QueueFlow's job list has no key filter: the jobs of that task created
// from the copy on are read oldest first, a bounded number of them.

/** How many jobs of the letter's task, created from its copy on, are read to find the edit. */
export const EDIT_SEARCH = 300;
/** Letters whose job is settled, remembered per adapter (the answer cannot change). */
const REMEMBERED = 5000;

/** Why QueueFlow refuses a letter's replay once it was replayed: the UI's and the server's words. */
export const replayedWhy = (job: string) => `already replayed as job ${job}; QueueFlow replays a letter once`;

export interface ReplayLinks {
  /** The job a replayed letter's replay runs as (the edited job after an edit-replay), null
   *  when the letter was not replayed. */
  jobOf(letter: QfDeadLetter): Promise<string | null>;
}

async function findEdited(client: QfClient, letter: QfDeadLetter, copy: QfJob): Promise<string | null> {
  const key = editKey(String(letter.id));
  let hit: string | null = null;
  const fetchPage = async (cursor: string | undefined, limit: number) => {
    const raw = await client.get('/api/v1/jobs', {
      task_name: copy.task_name,
      created_after: copy.created_at,
      order_by: 'created_at ASC',
      limit,
      cursor,
    });
    const page = parseWire(ZJobPage, raw, 'the job list');
    return { rows: page.jobs, hasMore: page.has_more, next: page.next_cursor ?? null };
  };
  await collectRows(fetchPage, (j) => cursorAfter(j.created_at, j.id), 1, undefined, {
    window: EDIT_SEARCH,
    keep: (j) => (j.idempotency_key === key ? ((hit ??= j.id), true) : false),
  });
  return hit;
}

export function createReplayLinks(client: QfClient): ReplayLinks {
  const settled = new Map<number, string>();
  const remember = (id: number, job: string) => {
    if (settled.size >= REMEMBERED) settled.delete(settled.keys().next().value!);
    settled.set(id, job);
    return job;
  };
  return {
    async jobOf(letter) {
      const copy = letter.replay_job_id;
      if (!copy) return null;
      const known = settled.get(letter.id);
      if (known) return known;
      const job = await readJob(client, copy);
      // Gone (retention) or ran: QueueFlow's copy is the replay.
      if (!job || job.status !== 'cancelled') return job && job.status !== 'pending' ? remember(letter.id, copy) : copy;
      const edited = await findEdited(client, letter, job);
      // A copy cancelled without an edit (by an operator, or an edit still being finished) is not remembered.
      return edited ? remember(letter.id, edited) : copy;
    },
  };
}
