import 'server-only';
import { randomUUID } from 'node:crypto';
import { EditError, typedToPy } from '@/lib/pyvalues/typed-edit';
import { checkEditKwargNames } from '@/lib/brokers/edit-kwargs';
import { ConsoleError } from '@/lib/brokers/errors';
import type { BrokerModel } from '@/lib/brokers/schema';
import type { EditPreview, EditReplayResult, ReplayEditInput } from '@/lib/brokers/schema-edit';
import type { PyVal } from '@/lib/pyvalues/pyval';
import { dumpsKombu, KombuEncodeError } from '@/lib/celery-protocol/kombu-json';
import { requireBackend, type ResultCtx } from './redis/context';
import { failureInput, replayFailures, type ReplayBroker } from './redis/failures';
import { resolveReplayQueue } from './route';
import { readRecord } from './redis/results';
import { buildSendTask, type BuiltCeleryMessage, type SendTaskInput } from './send-task';

// Replay of a FAILURE record with edits, whatever Celery's broker: the record's name, args,
// kwargs and queue (result_extended) with the edited fields replaced, sent as `app.send_task`
// would send it, under the same id; the record goes only after the message is written
// (replayFailures). Typed values go through the shared typed editor (lib/pyvalues/typed-edit.ts, the
// same Python values) and kombu's JSON encoder, which has no set or timedelta.

const WORKERS = "Celery's workers";
const invalid = (field: string, why: string) => new ConsoleError('InvalidInput', `${field}: ${why}`, { [field]: why });

function kombuValue(v: Parameters<typeof typedToPy>[0], field: string): PyVal {
  try {
    const py = typedToPy(v, field, WORKERS);
    dumpsKombu(py);
    return py;
  } catch (e) {
    if (e instanceof EditError) throw new ConsoleError('InvalidInput', e.message, { [e.field]: e.message });
    if (e instanceof KombuEncodeError) throw invalid(field, `Celery's JSON serializer (kombu) can't send it: ${e.message}`);
    throw e;
  }
}

/** send_task's arguments with the edit applied; bad edits are InvalidInput naming the field. */
export function editSendTask(input: SendTaskInput, edit: ReplayEditInput): SendTaskInput {
  const out = { ...input };
  if (edit.args) out.args = { k: 'list', items: edit.args.map((a, i) => kombuValue(a, `args[${i}]`)) };
  if (edit.kwargs) {
    checkEditKwargNames(edit.kwargs);
    out.kwargs = { k: 'dict', entries: edit.kwargs.map(([k, v]) => [k, kombuValue(v, `kwargs.${k}`)]) };
  }
  if (edit.queue !== undefined) {
    const q = edit.queue.trim();
    if (!q) throw invalid('queue', 'must not be empty');
    out.queue = q;
  }
  if (edit.priority !== undefined) {
    if (edit.priority < 0 || edit.priority > 255) throw invalid('priority', 'between 0 and 255 (kombu uses 0-9 on Redis)');
    out.priority = edit.priority;
  }
  return out;
}

/** The message a plain replay sends and the edited one, built alike (same reply_to and tag). */
export async function previewEditedCelery(
  ctx: ResultCtx,
  model: BrokerModel,
  id: string,
  edit: ReplayEditInput,
  broker?: Pick<ReplayBroker, 'routes'>,
): Promise<EditPreview> {
  const found = await readRecord(requireBackend(ctx), ctx.resultPrefix, id);
  const r = found?.record;
  if (!r || r.status !== 'FAILURE') throw new ConsoleError('NotFound', `no FAILURE record with id ${id}`);
  if (!r.name || !r.queue)
    throw invalid('payload', 'the record has no task name or queue: the app stores them only with result_extended = True');
  const fixed = { replyTo: randomUUID(), deliveryTag: randomUUID() };
  // The queue a plain replay sends to: the record's, resolved through the bindings (../route.ts).
  const to = broker?.routes ? await resolveReplayQueue(r.queue, await broker.routes()) : null;
  const queue = to?.kind === 'queue' ? to.queue : r.queue;
  const plain = { ...failureInput({ name: r.name, queue, args: r.args, kwargs: r.kwargs }, id), ...fixed };
  const before = buildSendTask(plain).json;
  const after = buildSendTask(editSendTask(plain, edit)).json;
  return { brokerId: ctx.brokerId, id, before, after, newId: id, sameId: true, does: model.actions.replayEdited!.does };
}

export async function replayEditedCelery(
  ctx: ResultCtx,
  model: BrokerModel,
  id: string,
  edit: ReplayEditInput,
  broker: ReplayBroker,
): Promise<EditReplayResult> {
  const preview = await previewEditedCelery(ctx, model, id, edit, broker); // bad edits fail before anything is sent
  let sent: BuiltCeleryMessage | null = null;
  const r = await replayFailures(ctx, [id], broker, { edit: (input) => editSendTask(input, edit), sent: (_, __, built) => (sent = built) });
  const outcome = r.succeeded[0] ?? r.failed[0];
  if (!outcome || outcome.outcome === 'missing') throw new ConsoleError('NotFound', `${id}: ${outcome?.message ?? 'no FAILURE record'}`);
  const written = sent as BuiltCeleryMessage | null;
  return { ...preview, after: written ? written.json : preview.after, outcome };
}
