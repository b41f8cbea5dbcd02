import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ActionDecl } from '@/lib/brokers/model';
import type { EditPreview, EditReplayResult, ReplayEditInput } from '@/lib/brokers/schema-edit';
import { idParam, type SdjQuery } from './db';
import { argsShown, editedArgs, NO_ARGS, replayView } from './edit-args';
import { CODEC_REFUSED, usesPayloadCodec } from './enqueue';
import { requireId } from './jobs';
import { requeueLocked } from './requeue';
import type { SdjStore } from './store';
import { outcome, perId } from './tx';

// Edit and replay a dead letter: the library's Requeue (requeue.ts, statement by statement) with
// the edits written in the same transaction, under the same row lock and status condition, so
// the row is replayed once whatever races it: a second console finds it pending (`already`), a
// worker holding it makes it `conflict`, a fan-out sub-job is refused as Requeue refuses it. The
// edits: args (the keys of its JSON object; edit-args.ts), queue and priority. The id stays;
// type, max_retries, timeout, tenant, metadata and unique_key stay the letter's.

export const SDJ_REPLAY_EDITED: ActionDecl & { sameId: boolean; noArgs: string; kwargs: { label: string; entry: string }; kinds: [] } = {
  does: "The job goes back to pending under its own id, exactly as the library's Requeue does (attempt 0; error, result, lock and times cleared; checkpoints and fan-out sub-jobs removed), with your edits written in the same transaction: the keys of its args (a JSON object), its queue and priority. Type, max runs, timeout, tenant, metadata and unique key stay the letter's. Args encrypted by a payload codec cannot be edited; a fan-out sub-job is refused (replay its parent).",
  sameId: true,
  noArgs: NO_ARGS,
  kwargs: { label: 'Args (a JSON object)', entry: 'args key' },
  // JSON only: the handler unmarshals JSON, so dates or UUIDs would reach it as text anyway.
  kinds: [],
};

const MAX_NAME = 255;
const INT32 = 2_147_483_647;

interface Letter {
  type: string;
  queue: string;
  priority: number;
  args: unknown;
  status: string;
}

interface Planned {
  before: string;
  after: string;
  /** Null: the args stay as stored. */
  args: string | null;
  queue: string;
  priority: number;
}

const invalid = (field: string, why: string) => new ConsoleError('InvalidInput', `${field}: ${why}`, { [field]: why });

/** The edit applied to the letter as read; bad edits are InvalidInput naming the field. */
function plan(l: Letter, edit: ReplayEditInput): Planned {
  const args = editedArgs(l.args, edit);
  const queue = edit.queue === undefined ? l.queue : edit.queue.trim();
  if (!queue) throw invalid('queue', 'must not be empty');
  if (queue.length > MAX_NAME) throw invalid('queue', `is at most ${MAX_NAME} characters`);
  const priority = edit.priority ?? l.priority;
  if (!Number.isSafeInteger(priority) || Math.abs(priority) > INT32) throw invalid('priority', 'must be a whole number');
  const stored = argsShown(l.args);
  return {
    before: replayView({ type: l.type, queue: l.queue, priority: l.priority, args: stored }),
    after: replayView({ type: l.type, queue, priority, args: args ?? stored }),
    args,
    queue,
    priority,
  };
}

const LETTER = 'SELECT type, queue, priority, args, status, fan_out_id, locked_by, unique_key FROM jobs WHERE id = ?';

const letterOf = (r: Record<string, unknown>): Letter => ({
  type: String(r.type),
  queue: String(r.queue),
  priority: Number(r.priority),
  args: r.args,
  status: String(r.status),
});

const REPLAYABLE = ['failed', 'cancelled'];

/** The letter as read now, unlocked; NotFound when there is none to replay. */
async function readLetter(store: SdjStore, id: string): Promise<Letter & { subJob: boolean }> {
  const [row] = await store.db.all(LETTER, [idParam(store.db.dialect, id)]);
  if (!row) throw new ConsoleError('NotFound', `no job ${id} (deleted, or purged by retention)`);
  const l = letterOf(row);
  // Gone from the dead letters (replayed, perhaps by another console): NotFound, as a letter
  // that is no longer there to replay is everywhere; a race past this check ends `already`.
  if (!REPLAYABLE.includes(l.status))
    throw new ConsoleError('NotFound', `job ${id} is ${l.status}, not a dead letter (replayed, or it never failed): nothing to replay`);
  return { ...l, subJob: row.fan_out_id !== null && row.fan_out_id !== undefined };
}

const SUB_JOB = 'a fan-out sub-job cannot be requeued directly; requeue its parent (the library refuses it too)';

const cleanId = (id: string) => {
  try {
    return requireId(id);
  } catch {
    throw new ConsoleError('NotFound', 'not a job id (a UUID)');
  }
};

const previewOf = (brokerId: string, id: string, p: Planned): EditPreview => ({
  brokerId,
  id,
  before: p.before,
  after: p.after,
  newId: id,
  sameId: true,
  does: SDJ_REPLAY_EDITED.does,
});

/** The row a replay of letter `id` with `edit` would leave, beside a plain replay's; nothing written. */
export async function previewReplayEditedSdj(store: SdjStore, brokerId: string, id: string, edit: ReplayEditInput): Promise<EditPreview> {
  const key = cleanId(id);
  const letter = await readLetter(store, key);
  if (letter.subJob) throw new ConsoleError('Unsupported', SUB_JOB);
  const planned = plan(letter, edit);
  const refused = await codecRefusal(store.db, planned, letter.queue);
  if (refused) throw new ConsoleError('Unsupported', refused);
  return previewOf(brokerId, key, planned);
}

/** Why edited args may not be written (plain JSON where a payload codec is in use), or null. */
async function codecRefusal(q: SdjQuery, p: Planned, from: string): Promise<string | null> {
  if (p.args === null) return null;
  for (const queue of new Set([from, p.queue]))
    if (await usesPayloadCodec(q, queue)) return `${CODEC_REFUSED}: edited args would be written as plain JSON`;
  return null;
}

/**
 * Replays letter `id` with `edit` in one transaction: the row locked, the edit planned from the
 * locked row, args/queue/priority written and the row requeued as Requeue does (requeue.ts,
 * same status condition), or nothing at all. Bad edits throw InvalidInput before anything runs.
 */
export async function replayEditedSdj(store: SdjStore, brokerId: string, id: string, edit: ReplayEditInput): Promise<EditReplayResult> {
  await store.requireWritable();
  const key = cleanId(id);
  let planned = plan(await readLetter(store, key), edit);
  const db = store.db;
  const keys = new Map<string, string>();
  const [result] = await perId(
    db,
    [key],
    (q, jid) =>
      requeueLocked(
        q,
        db.dialect,
        jid,
        async (row) => {
          planned = plan(letterOf(row), edit);
          const refused = await codecRefusal(q, planned, String(row.queue));
          if (refused) return outcome(jid, 'invalid', refused);
          const p = idParam(db.dialect, jid);
          const set = planned.args === null ? '' : ', args = ?';
          const values = planned.args === null ? [] : [Buffer.from(planned.args, 'utf8')];
          await q.run(`UPDATE jobs SET queue = ?, priority = ?${set} WHERE id = ? AND status IN ('failed', 'cancelled')`, [
            planned.queue,
            planned.priority,
            ...values,
            p,
          ]);
          return null;
        },
        keys,
      ),
    {
      onUnique: (jid) =>
        outcome(
          jid,
          'conflict',
          `a live job holds unique key "${keys.get(jid) ?? ''}", which this job keeps when replayed: nothing changed`,
        ),
    },
  );
  const o = result ?? outcome(key, 'invalid', 'nothing was done');
  const message = o.outcome === 'ok' ? 'back to pending from attempt 0 under the same id, with your edits' : o.message;
  return { ...previewOf(brokerId, key, planned), outcome: { id: key, outcome: o.outcome, message } };
}
