import 'server-only';
import type { DeadDetail, ResultRecordDto, StateDecl, TaskDetail, TaskFate } from '@/lib/brokers/schema';
import { fatesFrom } from '@/lib/brokers/kit/fate';
import { seenResult } from '@/lib/brokers/kit/fate-results';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';

/** The reads a potatoq store already has, by id. */
export interface PotatoqFateReads {
  /** The task waiting or running under `id`; a string where the broker cannot look (RabbitMQ
   *  finds no message by id without taking messages off the queue): why, in words. */
  getTask: ((id: string) => Promise<TaskDetail | null>) | string;
  getDead(id: string): Promise<DeadDetail | null>;
  /** Null where results are off (the result backend is not this store). */
  getResult: ((id: string) => Promise<ResultRecordDto | null>) | null;
}

/**
 * potatoq's replay keeps the id and forgets the FAILURE record, so the replayed task is found
 * under its own id: its result record (SUCCESS, or FAILURE with the worker's traceback), its
 * dead letter when it failed for good again (fingerprinted as the dead list groups it), or the
 * task row waiting or running. Nothing at all: the result expired after `result_expires`
 * seconds, or the task asked for none (`ignore_result`). Where the broker cannot look for the
 * task (RabbitMQ), no result and no letter yet is unknown: waiting, running or expired alike.
 */
export function potatoqFates(ids: string[], r: PotatoqFateReads, states: readonly StateDecl[], resultExpires: number): Promise<TaskFate[]> {
  const fp = (text: string) => reasonFingerprint(text).key;
  const getResult = r.getResult;
  return fatesFrom(ids, {
    states,
    result: getResult ? async (id) => seenResult(await getResult(id), fp) : undefined,
    dead: async (id) => {
      const d = await r.getDead(id);
      return d ? { fingerprint: d.reason === null ? null : fp(d.reason), detail: d.summary, at: d.diedAt, queue: d.queue } : null;
    },
    live: async (id) => {
      const getTask = r.getTask;
      if (typeof getTask === 'string')
        return { unknown: `no result or dead letter (yet): still waiting, running, or its result expired; ${getTask}` };
      return (await getTask(id))?.state ?? null;
    },
    nothing: getResult
      ? {
          fate: 'gone',
          detail: `no task, dead letter or result has this id: its result expired (potatoq keeps results ${resultExpires} s) or the task stores none (ignore_result)`,
        }
      : {
          fate: 'unknown',
          detail: 'no task or dead letter has this id, and results are not kept in this store, so a finished task leaves nothing to tell',
        },
  });
}
