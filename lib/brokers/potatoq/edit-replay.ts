import 'server-only';
import { reencodeEdited } from '@/lib/potatoq';
import { checkKwargNames, EditError, typedToPy } from '@/lib/pyvalues/typed-edit';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ActionResult } from '@/lib/brokers/schema';
import type { EditPreview, EditReplayResult, ReplayEditInput } from '@/lib/brokers/schema-edit';
import type { BrokerModel } from '@/lib/brokers/schema';
import { POTATOQ_TABLE_MODEL } from './model';

// Replay with edits on every potatoq broker (SQL, Redis, RabbitMQ): the letter's payload
// re-encoded as `requeue_dead` does, with the edited fields replaced; the task keeps the
// letter's id. Each store only decides where the edited message goes and how it is written.

/** The edit as a payload transform; an edit potatoq would not run is InvalidInput naming the field. */
export function editedPayload(raw: string, edit: ReplayEditInput): { before: string; after: string } {
  try {
    return reencodeEdited(raw, edit);
  } catch (e) {
    if (e instanceof EditError) throw new ConsoleError('InvalidInput', e.message, { [e.field]: e.message });
    throw e;
  }
}

/** The edit's own values checked before any letter is read (a broker where finding the letter is
 *  costly, RabbitMQ's DLQ browse, refuses a bad edit without touching it). */
export function checkEdit(edit: ReplayEditInput): void {
  try {
    edit.args?.forEach((a, i) => typedToPy(a, `args[${i}]`, "potatoq's workers"));
    if (edit.kwargs) {
      checkKwargNames(edit.kwargs);
      for (const [k, v] of edit.kwargs) typedToPy(v, `kwargs.${k}`, "potatoq's workers");
    }
  } catch (e) {
    if (e instanceof EditError) throw new ConsoleError('InvalidInput', e.message, { [e.field]: e.message });
    throw e;
  }
}

/** An edit applied to the letter's payload inside the write; a refusal keeps the letter. */
export function transformed(
  transform: (payload: string) => string,
  payload: string,
): { ok: true; json: string } | { ok: false; reason: string } {
  try {
    return { ok: true, json: transform(payload) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

export function previewOf(
  brokerId: string,
  id: string,
  raw: string | null,
  edit: ReplayEditInput,
  model: BrokerModel = POTATOQ_TABLE_MODEL,
): EditPreview {
  if (raw === null) throw new ConsoleError('NotFound', `dead letter ${id} is not in this broker`);
  const { before, after } = editedPayload(raw, edit);
  return { brokerId, id, before, after, newId: id, sameId: true, does: model.actions.replayEdited!.does };
}

/** The queue and priority the edited message names (potatoq's message fields), for stores that
 *  route by them outside the payload (Redis' hash fields, RabbitMQ's routing key and priority). */
export function routeOf(after: string): { queue: string | null; priority: number } {
  const m = JSON.parse(after) as { queue?: unknown; priority?: unknown };
  return {
    queue: typeof m.queue === 'string' ? m.queue : null,
    priority: typeof m.priority === 'number' && Number.isSafeInteger(m.priority) ? m.priority : 0,
  };
}

export function resultOf(p: EditPreview, r: ActionResult): EditReplayResult {
  const o = r.succeeded[0] ?? r.failed[0] ?? { id: p.id, outcome: 'error', message: 'the broker reported no outcome' };
  return { ...p, outcome: o };
}
