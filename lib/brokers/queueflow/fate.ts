import 'server-only';
import { fatesFrom } from '@/lib/brokers/kit/fate';
import type { StateDecl, TaskFate } from '@/lib/brokers/schema';
import type { QfClient } from './client';
import { letterFingerprint, readLetter, summaryOf } from './dead';
import { readJob } from './jobs';
import { QF_STATUSES, stateOf } from './model';
import type { ReplayLinks } from './replayed';
import { parseWire, ZDeadPage, type QfDeadLetter, type QfJob } from './wire';

/** A failed job's own letter is looked for among the letters of its task created between the
 *  job's creation and a minute after it failed (newest first, so its letter comes first unless
 *  others of the task died in the same minute), in pages of LETTER_PAGE, LETTER_PAGES at most. */
const LETTER_PAGE = 100;
const LETTER_PAGES = 5;
const LETTER_MARGIN_MS = 60_000;

/**
 * QueueFlow keeps a replayed letter, marked with `replay_job_id`, and runs the replay as a new
 * job: a campaign's id is the letter's (or, after an edited replay, the job's), followed to the
 * job (ReplayLinks: the edited job after an edit-replay). The job's status tells the rest:
 * completed (its result), failed (its own new dead letter, found among the letters of its task
 * created since it was, for the fingerprint and the letter's own id, which a replay of it takes),
 * pending/retrying/running. A job or letter gone by retention (`--retention-hours`) cannot be
 * followed: said so.
 */

/** The failed job `j`'s dead letter, or null when it is not among the letters searched. */
async function letterOf(client: QfClient, j: QfJob): Promise<QfDeadLetter | null> {
  const failed = j.completed_at ? Date.parse(j.completed_at) : NaN;
  const window = {
    task_name: j.task_name,
    created_after: j.created_at,
    ...(Number.isFinite(failed) ? { created_before: new Date(failed + LETTER_MARGIN_MS).toISOString() } : {}),
  };
  let cursor: string | undefined;
  for (let i = 0; i < LETTER_PAGES; i++) {
    const raw = await client.get('/api/v1/dlq', { ...window, limit: LETTER_PAGE, cursor });
    const page = parseWire(ZDeadPage, raw, 'the dead-letter list');
    const hit = page.dead_letters.find((d) => d.job_id === j.id);
    if (hit) return hit;
    if (!page.has_more || !page.next_cursor) return null;
    cursor = page.next_cursor;
  }
  return null;
}

/** The letter's queue, where QueueFlow names one. */
const queueOf = (d: { queue_name?: string | null }) => (d.queue_name ? { queue: d.queue_name } : {});
export function queueflowFates(ids: string[], client: QfClient, links: ReplayLinks, states: readonly StateDecl[]): Promise<TaskFate[]> {
  // One read of each job per call, shared by the result, dead and live questions.
  const jobs = new Map<string, Promise<QfJob | null>>();
  const job = (id: string) => {
    let j = jobs.get(id);
    if (!j) jobs.set(id, (j = readJob(client, id)));
    return j;
  };
  return fatesFrom(ids, {
    states,
    follow: async (id) => {
      if (!/^\d{1,18}$/.test(id)) return { id };
      const letter = await readLetter(client, id);
      if (!letter) return { unknown: `dead letter ${id} is gone (QueueFlow's retention), and with it the job its replay made` };
      const replay = await links.jobOf(letter);
      // Not replayed: the letter is what there is (its error, read before a replay).
      if (!replay)
        return {
          dead: { fingerprint: letterFingerprint(letter).key, detail: summaryOf(letter), at: letter.created_at, ...queueOf(letter) },
        };
      return { id: replay };
    },
    result: async (id) => {
      const j = await job(id);
      if (j?.status === 'completed')
        return {
          ok: true,
          detail: `completed${j.completed_at ? ` at ${j.completed_at}` : ''}; result kept with the job`,
          at: j.completed_at ?? null,
        };
      if (j?.status === 'cancelled') return { ok: false, detail: 'cancelled', at: j.completed_at ?? null, fingerprint: null };
      return null;
    },
    dead: async (id) => {
      const j = await job(id);
      if (j?.status !== 'failed') return null;
      const letter = await letterOf(client, j);
      if (!letter)
        return { fingerprint: null, detail: j.error_message ?? 'failed (its dead letter was not found)', at: j.completed_at ?? null };
      // Its letter's own id (a DLQ entry's, not the job's): what "replay the ones that died again" replays.
      const seen = { fingerprint: letterFingerprint(letter).key, detail: summaryOf(letter), at: letter.created_at };
      return { ...seen, ...queueOf(letter), letter: String(letter.id) };
    },
    live: async (id) => {
      const j = await job(id);
      return j && (QF_STATUSES as readonly string[]).includes(j.status) ? stateOf(j) : null;
    },
    nothing: { fate: 'gone', detail: "the replay's job is gone (QueueFlow's retention removed it), so its outcome is no longer known" },
  });
}
