import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { getAdapter } from '@/lib/brokers/registry';
import { requirePairing } from '@/lib/brokers/move';
import { waitingPairing } from '@/lib/brokers/move-waiting';
import { mappedJob, sourceView } from './enqueue';
import { previewBack } from './preview-back';
import { previewItems } from './preview-items';
import type { MovePreviewItem } from './schema';

export const MAX_PREVIEW = 50;

/**
 * The jobs a move of letters `ids` from `fromId` to `toId` would create through their task's
 * call mapping; nothing sent, nothing changed. `keyed`: what the target's key does.
 */
export async function previewMove(
  fromId: string,
  toId: string,
  ids: string[],
  /** `waiting`: waiting tasks (lib/brokers/move-waiting.ts), read without taking them. */
  state: 'dead' | 'waiting' = 'dead',
): Promise<{ keyed: string | null; items: MovePreviewItem[] }> {
  if (ids.length > MAX_PREVIEW)
    throw new ConsoleError('InvalidInput', `ids: at most ${MAX_PREVIEW} letters a preview`, { ids: 'too many' });
  const from = getAdapter(fromId);
  const to = getAdapter(toId);
  if (state === 'waiting') {
    const p = await waitingPairing(fromId, toId);
    if (!p.on) throw new ConsoleError('Unsupported', p.why);
  } else await requirePairing(fromId, toId);
  const sides = { from: { id: fromId, name: from.name }, to: { id: toId, name: to.name } };
  if (!from.exportCall && from.exportValue) return previewBack(sides, from, to, ids, state);
  if (from.model.calls?.model === to.model.calls?.model || !from.exportCall)
    throw new ConsoleError(
      'Unsupported',
      `${from.name} and ${to.name} share a call model: a move keeps each call as it is (no mapping to preview)`,
    );
  const exportCall = state === 'waiting' ? (id: string) => from.peekWaiting!(id).then((w) => w && w.call) : from.exportCall.bind(from);
  const what = state === 'waiting' ? 'a waiting task' : 'a dead letter';
  const items = await previewItems(ids, `not ${what} on ${from.name}`, exportCall, async (item, call) => {
    item.source = sourceView(call);
    const r = await mappedJob(sides, call);
    Object.assign(item, { job: r.job, notCarried: r.notCarried, notes: r.notes });
  });
  return { keyed: to.model.calls?.keyed ?? null, items };
}
