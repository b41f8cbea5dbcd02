import 'server-only';
import { isConsoleError } from '@/lib/brokers/errors';
import { fatesFrom } from '@/lib/brokers/kit/fate';
import { seenResult } from '@/lib/brokers/kit/fate-results';
import type { DeadDetail, ResultRecordDto, StateDecl, TaskDetail, TaskFate } from '@/lib/brokers/schema';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';

/** The reads a Celery broker already has, by id. */
export interface CeleryFateReads {
  /** The message waiting or reserved under `id`; a string where the broker cannot look (RabbitMQ
   *  finds no message by id without taking messages off the queue): why, in words. */
  getTask: ((id: string) => Promise<TaskDetail | null>) | string;
  getDead(id: string): Promise<DeadDetail | null>;
  getResult(id: string): Promise<ResultRecordDto | null>;
  /** Seconds the result backend keeps a record (`result_expires`). */
  resultExpires: number;
}

/**
 * Celery's replay sends the task again under its id and deletes the FAILURE record, so the
 * replayed task is told by the result backend: SUCCESS, or FAILURE again (its traceback's
 * fingerprint, as the dead list groups it); before it runs, by its message waiting in the
 * queue or reserved by a worker. A queue longer than one read leaves a waiting task unknown.
 * No record and no message: the record expired (`result_expires`) or the task ignores results.
 * Where the broker cannot look for the message (RabbitMQ), no record yet is unknown: waiting,
 * running, or expired cannot be told apart.
 */
export function celeryFates(ids: string[], r: CeleryFateReads, states: readonly StateDecl[]): Promise<TaskFate[]> {
  const fp = (text: string) => reasonFingerprint(text).key;
  return fatesFrom(ids, {
    states,
    result: async (id) => seenResult(await r.getResult(id), fp),
    dead: async (id) => {
      const d = await r.getDead(id);
      return d
        ? { fingerprint: d.reason === null ? null : fp(d.reason), detail: d.summary, at: d.diedAt, ...(d.queue ? { queue: d.queue } : {}) }
        : null;
    },
    live: async (id) => {
      const getTask = r.getTask;
      if (typeof getTask === 'string')
        return { unknown: `no result record (yet): still waiting, running, or its record expired; ${getTask}` };
      try {
        return (await getTask(id))?.state ?? null;
      } catch (e) {
        // The queues were longer than one read: the message may still wait beyond it.
        if (isConsoleError(e) && e.code === 'NotFound') return { unknown: `no result yet, and ${e.message.replace(/^task \S+ /, '')}` };
        throw e;
      }
    },
    nothing: {
      fate: 'gone',
      detail: `no result record and no message has this id: its record expired (the backend keeps results ${r.resultExpires} s) or the task ignores results`,
    },
  });
}
