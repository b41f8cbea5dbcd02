import 'server-only';
import type { TaskFate } from '@/lib/brokers/schema';
import { celeryFates } from '../fate';
import { CELERY_RABBITMQ_MODEL } from '../model';
import type { ResultCtx } from '../redis/context';
import { getDead, getResult } from '../redis/reads-dead';

const NO_FIND = 'RabbitMQ cannot find a message by id without taking messages off its queue';

/** A replayed task's fate from the Redis result backend alone: SUCCESS or FAILURE records (a
 *  DLQ browse per id would cost too much); no record yet is unknown, with NO_FIND as why. */
export function rabbitCeleryFates(rctx: ResultCtx, ids: string[]): Promise<TaskFate[]> {
  return celeryFates(
    ids,
    { getTask: NO_FIND, getDead: (id) => getDead(rctx, id), getResult: (id) => getResult(rctx, id), resultExpires: rctx.resultExpires },
    CELERY_RABBITMQ_MODEL.states,
  );
}
