import 'server-only';
import { getConfig } from '@/lib/config';
import { isConsoleError } from '@/lib/brokers/errors';
import { convertBack } from '@/lib/brokers/move-back';
import { toConsoleError, withTimeout } from '@/lib/brokers/service';
import type { BrokerAdapter, ValueLetter } from '@/lib/brokers/types';
import { backPreview, letterView } from './reverse';
import type { MovePreviewItem } from './schema';

/**
 * The preview of the way back (a named-payload broker's dead letters or pending jobs to a
 * broker of positional calls): each job read here without taking it, beside the exact call the
 * move would enqueue (lib/brokers/move-back.ts, the same conversion). Nothing sent or changed.
 */
export async function previewBack(
  sides: { from: { id: string; name: string }; to: { id: string; name: string } },
  from: BrokerAdapter,
  to: BrokerAdapter,
  ids: string[],
  state: 'dead' | 'waiting',
): Promise<{ keyed: string; items: MovePreviewItem[] }> {
  const read = async (id: string): Promise<ValueLetter | null> =>
    state === 'waiting' ? ((await from.peekWaitingValue!(id))?.letter ?? null) : from.exportValue!(id);
  const what = state === 'waiting' ? 'a pending job' : 'a dead letter';
  const items: MovePreviewItem[] = [];
  for (const id of [...new Set(ids)]) {
    const item: MovePreviewItem = { id, source: null, job: null, letter: null, call: null, problems: {}, notCarried: [], notes: [] };
    items.push(item);
    try {
      const letter = await withTimeout('letter read', getConfig().timeouts.readMs, () => read(id));
      if (!letter) {
        item.problems.id = `not ${what} on ${from.name}`;
        continue;
      }
      item.letter = letterView(letter);
      Object.assign(item, backPreview(letter, await convertBack(sides, letter, to)));
    } catch (e) {
      const err = isConsoleError(e) ? e : toConsoleError(e);
      item.problems = err.fields && Object.keys(err.fields).length ? { ...err.fields } : { id: err.message };
    }
  }
  return { keyed: `Each task is enqueued on ${to.name} under its ${from.name} job's id, so a move sent again finds it there`, items };
}
