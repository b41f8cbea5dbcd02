import 'server-only';
import { convertBack } from '@/lib/brokers/move-back';
import type { BrokerAdapter, ValueLetter } from '@/lib/brokers/types';
import { previewItems } from './preview-items';
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
  const items = await previewItems(ids, `not ${what} on ${from.name}`, read, async (item, letter) => {
    Object.assign(item, { letter: letterView(letter), call: null });
    Object.assign(item, backPreview(letter, await convertBack(sides, letter, to)));
  });
  return { keyed: `Each task is enqueued on ${to.name} under its ${from.name} job's id, so a move sent again finds it there`, items };
}
