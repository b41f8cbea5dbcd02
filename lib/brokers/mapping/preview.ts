import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import { getAdapter } from '@/lib/brokers/registry';
import { toConsoleError, withTimeout } from '@/lib/brokers/service';
import { requirePairing } from '@/lib/brokers/move';
import { waitingPairing } from '@/lib/brokers/move-waiting';
import { mappedJob, sourceView } from './enqueue';
import { previewBack } from './preview-back';
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
  const items: MovePreviewItem[] = [];
  for (const id of [...new Set(ids)]) {
    const item: MovePreviewItem = { id, source: null, job: null, problems: {}, notCarried: [], notes: [] };
    items.push(item);
    try {
      const call = await withTimeout('letter read', getConfig().timeouts.readMs, () => exportCall(id));
      if (!call) {
        item.problems.id = `not ${what} on ${from.name}`;
        continue;
      }
      item.source = sourceView(call);
      const r = await mappedJob(sides, call);
      Object.assign(item, { job: r.job, notCarried: r.notCarried, notes: r.notes });
    } catch (e) {
      const err = isConsoleError(e) ? e : toConsoleError(e);
      item.problems = err.fields && Object.keys(err.fields).length ? { ...err.fields } : { id: err.message };
    }
  }
  return { keyed: to.model.calls?.keyed ?? null, items };
}
