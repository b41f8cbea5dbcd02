import 'server-only';
import type Database from 'better-sqlite3';
import { decodePayload, reencodeWithoutEta } from '@/lib/potatoq';
import type { ActionOutcome, ActionResult } from '@/lib/brokers/schema';
import { actionResult } from '@/lib/brokers/kit/results';
import { transformed } from '../edit-replay';

/** potatoq's `_INSERT`: the one statement every producer uses. */
export const INSERT_JOB =
  'INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, created_at, payload) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING';

const utf8 = new TextDecoder('utf-8', { fatal: true });
function strictUtf8(b: Buffer): string | null {
  try {
    return utf8.decode(b);
  } catch {
    return null;
  }
}

/** Ids per `BEGIN IMMEDIATE`: keeps each hold of the write lock short for the workers. */
const CHUNK = 200;

export type Step = (id: string, now: number) => ActionOutcome;

/** Thrown inside a per-id savepoint to undo that id's statements and report why. */
class Undo extends Error {
  constructor(readonly outcome: ActionOutcome) {
    super(outcome.message);
  }
}

/**
 * Runs `step` per id, each id in its own savepoint inside `BEGIN IMMEDIATE` transactions of
 * up to CHUNK ids. A step that returns a non-ok outcome has its savepoint rolled back, so
 * nothing it wrote survives. A chunk that fails as a whole (lock timeout, driver error) is
 * rolled back and marks its ids `error`, without hiding what earlier chunks committed.
 */
export function runPerId(
  db: Database.Database,
  action: ActionResult['action'],
  brokerId: string,
  ids: string[],
  step: Step,
  describe: (e: unknown) => string,
): ActionResult {
  const unique = [...new Set(ids)];
  const outcomes: ActionOutcome[] = [];
  const perId = db.transaction((id: string, now: number) => {
    const out = step(id, now);
    if (out.outcome !== 'ok') throw new Undo(out);
    return out;
  });
  const chunk = db.transaction((part: string[]) => {
    const now = Date.now() / 1000;
    const done: ActionOutcome[] = [];
    for (const id of part) {
      try {
        done.push(perId(id, now));
      } catch (e) {
        if (!(e instanceof Undo)) throw e;
        done.push(e.outcome);
      }
    }
    return done;
  });
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    try {
      outcomes.push(...chunk.immediate(part));
    } catch (e) {
      const message = describe(e);
      outcomes.push(...part.map((id) => ({ id, outcome: 'error' as const, message })));
    }
  }
  return actionResult(action, brokerId, unique, outcomes);
}

/** A message priority bound as potatoq would bind the Python value (an int when it is one). */
export function priorityParam(p: string | null | undefined): bigint | number | string {
  if (p === null || p === undefined || p === '') return 0n;
  if (/^-?\d+$/.test(p)) return BigInt(p);
  if (p === 'true' || p === 'True') return 1n;
  if (p === 'false' || p === 'False') return 0n;
  const n = Number(p);
  return Number.isFinite(n) ? n : p;
}

/**
 * potatoq's `requeue_dead`, except that a live job with the same id makes us keep the letter
 * (potatoq deletes it and skips the insert, losing the task).
 */
export function replayStep(db: Database.Database, transform?: (payload: string) => string): Step {
  const del = db.prepare('DELETE FROM potatoq_dead WHERE id = ? RETURNING payload').pluck();
  const exists = db.prepare('SELECT state FROM potatoq_jobs WHERE id = ?').pluck();
  const forget = db.prepare('DELETE FROM potatoq_results WHERE id = ?');
  const insert = db.prepare(INSERT_JOB);
  return (id, now) => {
    const stored = del.get(id) as string | Buffer | undefined;
    if (stored === undefined) return { id, outcome: 'missing', message: 'not in the dead letters (already replayed or discarded?)' };
    const payload = typeof stored === 'string' ? stored : strictUtf8(stored);
    if (payload === null) {
      const d = decodePayload(stored);
      const reason = d.kind === 'foreign' ? d.reason : 'invalid UTF-8';
      return { id, outcome: 'invalid', message: `potatoq can't run this payload, so the letter was kept: ${reason}` };
    }
    const re = transform ? transformed(transform, payload) : reencodeWithoutEta(payload);
    if (!re.ok) return { id, outcome: 'invalid', message: `potatoq can't run this payload, so the letter was kept: ${re.reason}` };
    const m = decodePayload(re.json);
    if (m.kind !== 'potatoq')
      return { id, outcome: 'invalid', message: `potatoq can't run this payload, so the letter was kept: ${m.reason}` };
    // potatoq inserts under the id inside the payload; normally the letter's own id.
    if (exists.get(m.id) !== undefined) {
      return { id, outcome: 'conflict', message: `a waiting or running task with id ${m.id} already exists; the letter was kept` };
    }
    forget.run(id);
    const changes = insert.run(m.id, m.queue ?? 'default', m.task, 1, priorityParam(m.priority), now, now, re.json).changes;
    if (changes !== 1) return { id, outcome: 'conflict', message: 'the task could not be inserted; the letter was kept' };
    return { id, outcome: 'ok', message: 'requeued as ready' };
  };
}

/** Deletes the letter; `forgetResult` (a move's removal) also its result row, as a replay does. */
export function discardStep(db: Database.Database, forgetResult = false): Step {
  const del = db.prepare('DELETE FROM potatoq_dead WHERE id = ?');
  const forget = db.prepare('DELETE FROM potatoq_results WHERE id = ?');
  return (id) => {
    if (del.run(id).changes === 0) return { id, outcome: 'missing', message: 'not in the dead letters (already replayed or discarded?)' };
    const forgot = forgetResult && forget.run(id).changes > 0;
    return { id, outcome: 'ok', message: forgot ? 'dead letter and its result deleted' : 'dead letter deleted' };
  };
}
