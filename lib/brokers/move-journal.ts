import 'server-only';
import type { SqlRunner } from '@/lib/state/sql';

/**
 * The move journal: a write-ahead record of each dead-letter move in the console's own state
 * store (POTATOQ_CONSOLE_STATE, beside the audit trail and the bulk jobs). A row is written,
 * and committed, before anything is sent to the target, and deleted once the letter has left
 * the source (by the move, or by a console replay or discard: `forget`). A row still there afterwards means a move began and did not finish: it may have
 * delivered the task (and the task may have run) even where the target keeps no trace of it.
 * The primary key (source broker, letter id) is the arbiter between two moves of the same id:
 * only one insert wins, in one console process or in several sharing the store.
 */

export interface JournalRow {
  /** Source broker id and the letter's id (the key). */
  source: string;
  id: string;
  target: string;
  /** This attempt (a retry or a "move anyway" takes the row over with a new one). */
  moveId: string;
  /** When the attempt began (ISO) and who made it (a user, or a bulk job and its user). */
  at: string;
  who: string;
  auditId: string | null;
  /** Until then the attempt may still be running (ms since the epoch); 0 once it stopped. */
  untilMs: number;
  /** What the attempt knew when it stopped without finishing; null when it never said (a crash). */
  note: string | null;
}

export interface MoveJournal {
  /** Inserts `row` unless a row for its (source, id) exists: `won`, or the row that was there
   *  (null when it went away meanwhile). */
  begin(row: JournalRow): Promise<{ won: true } | { won: false; row: JournalRow | null }>;
  /** Replaces `prev` with `next` if `prev` is still the row (same move id): true when this caller won. */
  takeOver(prev: JournalRow, next: JournalRow): Promise<boolean>;
  /** The attempt stopped without finishing: keeps the row, with what it knew. */
  end(row: JournalRow, note: string): Promise<void>;
  /** The attempt finished (or sent nothing): the row goes, if it is still this attempt's. */
  clear(row: JournalRow): Promise<void>;
  get(source: string, id: string): Promise<JournalRow | null>;
  /** Deletes the rows of `ids` at `source` of attempts that began before `beganBefore` (ISO)
   *  and have stopped (their lease passed): those letters then left the source another way (a
   *  console replay or discard that started at `beganBefore`). The number of rows deleted. */
  forget(source: string, ids: string[], beganBefore: string, nowMs: number): Promise<number>;
}

type Stored = {
  source: string;
  id: string;
  target: string;
  move_id: string;
  at: string;
  who: string;
  audit_id: string | null;
  until_ms: number | string;
  note: string | null;
};

const COLUMNS = 'source, id, target, move_id, at, who, audit_id, until_ms, note';

const fromStored = (r: Stored): JournalRow => ({
  source: r.source,
  id: r.id,
  target: r.target,
  moveId: r.move_id,
  at: r.at,
  who: r.who,
  auditId: r.audit_id,
  untilMs: Number(r.until_ms),
  note: r.note,
});

export function createSqlMoveJournal(db: Omit<SqlRunner, 'batch' | 'close'>): MoveJournal {
  const get = async (source: string, id: string) => {
    const r = await db.all<Stored>(`SELECT ${COLUMNS} FROM console_move_journal WHERE source = ? AND id = ?`, [source, id]);
    return r[0] ? fromStored(r[0]) : null;
  };
  return {
    async begin(row) {
      // One statement: the insert that wins says so (RETURNING), in SQLite and PostgreSQL alike.
      const won = await db.all<{ move_id: string }>(
        `INSERT INTO console_move_journal (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (source, id) DO NOTHING RETURNING move_id`,
        [row.source, row.id, row.target, row.moveId, row.at, row.who, row.auditId, row.untilMs, row.note],
      );
      if (won.length === 1) return { won: true };
      return { won: false, row: await get(row.source, row.id) };
    },
    async takeOver(prev, next) {
      const r = await db.all<{ move_id: string }>(
        `UPDATE console_move_journal SET target = ?, move_id = ?, at = ?, who = ?, audit_id = ?, until_ms = ?, note = NULL
         WHERE source = ? AND id = ? AND move_id = ? RETURNING move_id`,
        [next.target, next.moveId, next.at, next.who, next.auditId, next.untilMs, prev.source, prev.id, prev.moveId],
      );
      return r.length === 1;
    },
    async end(row, note) {
      await db.run('UPDATE console_move_journal SET until_ms = 0, note = ? WHERE source = ? AND id = ? AND move_id = ?', [
        note.slice(0, 2000),
        row.source,
        row.id,
        row.moveId,
      ]);
    },
    async clear(row) {
      await db.run('DELETE FROM console_move_journal WHERE source = ? AND id = ? AND move_id = ?', [row.source, row.id, row.moveId]);
    },
    async forget(source, ids, beganBefore, nowMs) {
      let n = 0;
      // One statement per chunk, each row tested as it is deleted: a move that took a row over
      // meanwhile (a new lease, a later `at`) keeps it.
      for (let i = 0; i < ids.length; i += FORGET_CHUNK) {
        const chunk = ids.slice(i, i + FORGET_CHUNK);
        n += await db.run(
          `DELETE FROM console_move_journal WHERE source = ? AND id IN (${chunk.map(() => '?').join(', ')})
           AND until_ms <= ? AND at < ?`,
          [source, ...chunk, nowMs, beganBefore],
        );
      }
      return n;
    },
    get,
  };
}

const FORGET_CHUNK = 500;
