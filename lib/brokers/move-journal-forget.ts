import 'server-only';
import { getMoveJournal } from './move-journal-open';
import type { ActionResult } from './schema';

/**
 * A console replay or discard of dead letters at `source`, then their move journal rows
 * forgotten (lib/brokers/move-journal.ts): a row of a move that stopped before finishing
 * would otherwise stay until the id is moved again, and that later move (of the letter the
 * replayed task left when it died again) would be warned of the old move, or take the old
 * delivery for this letter's. Only rows of attempts that began before `act` did and whose lease
 * has passed go: a move still running keeps its row, and so does one that begins meanwhile.
 * Exactly once still holds: the row only ever stopped a second send of the letter it was
 * written for, and that letter has left the source (replayed or discarded, the operator's
 * decision, as the move's warning offers it); a letter of the same id dying later is a new one.
 * A journal that can't be written is logged: the letters have left, the rows stay (the safe side).
 */
export async function forgettingMoves<T>(source: string, act: () => Promise<T>, left: (r: T) => string[]): Promise<T> {
  const began = new Date().toISOString();
  const r = await act();
  const ids = left(r);
  if (ids.length) {
    try {
      await (await getMoveJournal()).forget(source, ids, began, Date.now());
    } catch (e) {
      console.error(JSON.stringify({ event: 'console.move-journal-error', what: 'forget', message: String(e) }));
    }
  }
  return r;
}

/** The ids whose letters an action's result says left the source. */
export const leftIds = (r: ActionResult): string[] => r.succeeded.filter((o) => o.outcome === 'ok').map((o) => o.id);
