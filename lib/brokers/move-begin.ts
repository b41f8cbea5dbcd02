import 'server-only';
import { randomUUID } from 'node:crypto';
import type { JournalRow, MoveJournal } from './move-journal';

// What every move of one id does first with the move journal (lib/brokers/move-journal.ts),
// dead letters (./move-one.ts) and waiting tasks (./move-waiting-one.ts) alike.

export interface RowBy {
  by: string;
  auditId?: string | null;
  /** How long this attempt may take before its row counts as stopped. */
  leaseMs: number;
}

/** This attempt's row for moving `id` from `source` to `target`. */
export const newMoveRow = (source: string, target: string, id: string, by: RowBy): JournalRow => ({
  source,
  id,
  target,
  moveId: randomUUID(),
  at: new Date().toISOString(),
  who: by.by,
  auditId: by.auditId ?? null,
  untilMs: Date.now() + by.leaseMs,
  note: null,
});

/** `journal.begin(row)`; once more when the row in the way went between our insert and our read
 *  (its move has just finished). Throws what the journal throws. */
export async function beginMove(journal: MoveJournal, row: JournalRow): ReturnType<MoveJournal['begin']> {
  const got = await journal.begin(row);
  return !got.won && !got.row ? journal.begin(row) : got;
}

/** A journal write after the brokers were written: logged, never turned into the id's outcome. */
export async function quietly(what: string, p: Promise<void>): Promise<void> {
  await p.catch((e: unknown) => console.error(JSON.stringify({ event: 'console.move-journal-error', what, message: String(e) })));
}
