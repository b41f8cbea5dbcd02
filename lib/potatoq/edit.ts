// Edited arguments of a dead letter re-encoded as potatoq's message: the typed values become
// Python values through the shared typed editor (lib/pyvalues/typed-edit.ts), then potatoq's
// encoder writes them. Client-safe (the editor previews with it too).
import type { TypedValue } from '@/lib/brokers/typed-value';
import { checkKwargNames, EditError, typedToJson, typedToPy } from '@/lib/pyvalues/typed-edit';
import { MESSAGE_FIELDS } from './decode';
import { parseJson } from '@/lib/pyvalues/json';
import { decodeTags } from './tags';
import { dumpsPy } from './dumps';
import { reencode } from './encode';

const WORKERS = "potatoq's workers";

/** The value as potatoq's wire JSON (tags as its serializer writes them). */
export const typedToWire = (v: TypedValue, field: string): string => typedToJson(v, field, '__potatoq__');

export interface ReplayEdit {
  args?: TypedValue[];
  kwargs?: Array<[string, TypedValue]>;
  queue?: string;
  priority?: number;
}

/**
 * The message a replay with `edit` writes: what `requeue_dead` writes (decode, eta dropped,
 * encode), with the edited fields replaced. Same id, task and other fields.
 */
export function reencodeEdited(raw: string, edit: ReplayEdit, now = Date.now() / 1000): { before: string; after: string } {
  const base = reencode(raw, true, now);
  if (!base.ok) throw new EditError('payload', `potatoq can't run this letter: ${base.reason}`);
  const root = decodeTags(parseJson(base.json)).value;
  if (root.k !== 'dict') throw new EditError('payload', 'not an object');
  const known = new Map(root.entries.filter(([k]) => (MESSAGE_FIELDS as readonly string[]).includes(k)));
  if (edit.args) known.set('args', { k: 'list', items: edit.args.map((a, i) => typedToPy(a, `args[${i}]`, WORKERS)) });
  if (edit.kwargs) {
    checkKwargNames(edit.kwargs);
    known.set('kwargs', { k: 'dict', entries: edit.kwargs.map(([k, x]) => [k, typedToPy(x, `kwargs.${k}`, WORKERS)]) });
  }
  if (edit.queue !== undefined) {
    const q = edit.queue.trim();
    if (!q) throw new EditError('queue', 'must not be empty');
    known.set('queue', { k: 'str', v: q });
  }
  if (edit.priority !== undefined) {
    if (!Number.isSafeInteger(edit.priority)) throw new EditError('priority', 'must be a whole number');
    known.set('priority', { k: 'int', text: String(edit.priority) });
  }
  // Field order and defaults as potatoq's encoder writes them: re-encode the edited message.
  const edited = reencode(dumpsPy({ k: 'dict', entries: [...known.entries()] }), false, now);
  if (!edited.ok) throw new EditError('payload', edited.reason);
  return { before: base.json, after: edited.json };
}
