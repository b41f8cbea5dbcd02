import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { EditPreview, EditReplayResult, ReplayEditInput } from '@/lib/brokers/schema-edit';
import { checkEdit, editedPayload, previewOf, routeOf } from '../edit-replay';
import { POTATOQ_RABBITMQ_MODEL } from '../model';
import type { RabbitCtx } from './context';
import { runOnLetters } from './letter-actions';
import { readLetters } from './reads';
import { checkQueueName } from './topology';
import { republish } from './writes';

// Replay with edits on potatoq's RabbitMQ broker: the letter's payload edited by the shared
// potatoq code, published to its (edited) queue with its (edited) priority, and acked out of the
// DLQ only after the publish is confirmed (replayDead's step). RabbitMQ 3.x can't browse potatoq's
// DLQs without dropping their letters (requireBrowsable refuses before anything is read).

const check = (edit: ReplayEditInput) => {
  checkEdit(edit);
  if (edit.queue !== undefined) checkQueueName(edit.queue.trim());
};

export async function previewEditedRabbit(ctx: RabbitCtx, id: string, edit: ReplayEditInput): Promise<EditPreview> {
  check(edit);
  // As getDead: a DLQ another console is redriving is skipped; its Conflict only if the letter is not elsewhere.
  const busy: ConsoleError[] = [];
  const letter = (await readLetters(ctx, undefined, busy)).find((l) => l.id === id);
  if (!letter && busy[0]) throw busy[0];
  return previewOf(ctx.config.id, id, letter ? letter.body.toString('utf8') : null, edit, POTATOQ_RABBITMQ_MODEL);
}

export async function replayEditedRabbit(ctx: RabbitCtx, id: string, edit: ReplayEditInput): Promise<EditReplayResult> {
  const preview = await previewEditedRabbit(ctx, id, edit); // bad edits fail here, before any letter is held
  let after = preview.after;
  const [outcome] = await runOnLetters(ctx, [id], async (letter, held, ch): Promise<ActionOutcome> => {
    if (letter.payload.kind === 'foreign') return { id, outcome: 'invalid', message: letter.payload.reason };
    try {
      after = editedPayload(letter.body.toString('utf8'), edit).after;
    } catch (e) {
      return { id, outcome: 'invalid', message: e instanceof Error ? e.message : String(e) };
    }
    const route = routeOf(after);
    return republish(ctx, id, route.queue ?? letter.queue, after, route.priority, held, ch);
  });
  if (!outcome || outcome.outcome === 'missing')
    throw new ConsoleError('NotFound', `dead letter ${id}: ${outcome?.message ?? 'not found'}`);
  return { ...preview, after, outcome };
}
