import 'server-only';
import { getStateDb } from '@/lib/bulk/store-open';
import { ConsoleError } from './errors';
import { createSqlMoveJournal, type MoveJournal } from './move-journal';

const KEY = Symbol.for('potatoq.console.moveJournal');
type Global = typeof globalThis & { [KEY]?: MoveJournal };

/**
 * The move journal in the state store. A move never runs without it: where the store cannot be
 * opened the move is refused as a whole, before anything is sent (as the gate refuses every
 * write when the audit trail, in the same store, cannot be written).
 */
export async function getMoveJournal(): Promise<MoveJournal> {
  const g = globalThis as Global;
  if (g[KEY]) return g[KEY];
  try {
    return createSqlMoveJournal(await getStateDb());
  } catch (e) {
    throw new ConsoleError(
      'Internal',
      `the move journal (in the console's state store) cannot be opened, so nothing was moved: ${String(e)}`,
    );
  }
}

/** Tests only. */
export function setMoveJournalForTests(journal: MoveJournal | null): void {
  const g = globalThis as Global;
  if (journal) g[KEY] = journal;
  else delete g[KEY];
}
