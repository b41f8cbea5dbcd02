import 'server-only';
import type { ConsoleError } from '@/lib/brokers/errors';
import type { DeadDetail, TaskFate } from '@/lib/brokers/schema';
import { decoded, detailOf, lightLetter, type Letter } from '@/lib/potatoq/amqp-letter';
import { potatoqFates } from '../fate';
import { POTATOQ_RABBITMQ_MODEL } from '../model';
import type { RabbitCtx } from './context';
import { readLetters } from './reads';

export const NO_FIND = 'RabbitMQ cannot find a message by id without taking messages off its queue';

/**
 * A replayed task's fate on potatoq's RabbitMQ broker (RabbitMQ 4 with a result backend): a
 * SUCCESS record, its letter in a DLQ when it died again (fingerprinted as the dead list groups
 * it), else unknown (waiting or expired cannot be told: NO_FIND). A FAILURE record alone tells
 * nothing here: the replay leaves the one it died with in the backend, and a task that dies
 * again is dead-lettered anew, so "dead" is said by a letter only. The DLQs
 * are browsed once per call, not once per id, so a batch costs one browse (at most
 * `deadBrowseLimit` letters per DLQ) and one result read per id.
 */
export function rabbitFates(ctx: RabbitCtx, ids: string[]): Promise<TaskFate[]> {
  const backend = ctx.backend;
  let letters: Promise<Map<string, Letter>> | null = null;
  const busy: ConsoleError[] = [];
  const browse = () => (letters ??= readLetters(ctx, undefined, busy, lightLetter).then((ls) => new Map(ls.map((l) => [l.id, l]))));
  return potatoqFates(
    ids,
    {
      getTask: NO_FIND,
      getDead: async (id): Promise<DeadDetail | null> => {
        const found = (await browse()).get(id);
        if (!found && busy[0]) throw busy[0];
        return found ? detailOf(decoded(found), null) : null;
      },
      getResult: backend
        ? async (id) => {
            const r = await backend.getResult(id);
            return r?.status === 'SUCCESS' ? r : null;
          }
        : null,
    },
    POTATOQ_RABBITMQ_MODEL.states,
    ctx.resultExpires,
  );
}
