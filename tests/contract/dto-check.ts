// The adapters' answers against the DTOs' zod definitions (lib/brokers/dto*.ts, ...), exactly:
// a field the definition does not name fails, as does a wrong type or a missing field. Every
// case of the shared battery runs on an adapter wrapped by `checkedAdapter`, so each answer a
// real broker gave in any case is checked, and `registerDtoShapes` reads each kind once on
// seeded data so none goes unchecked where a case is skipped.
import { expect } from 'vitest';
import { z } from 'zod';
import {
  ZActionResult,
  ZBrokerModel,
  ZBrokerOverview,
  ZCapabilities,
  ZDeadDetail,
  ZDeadGroups,
  ZDeadHistogram,
  ZDeadSummary,
  ZDiagnosis,
  ZEnqueuePreview,
  ZEnqueueResult,
  ZPage,
  ZPurgeResult,
  ZQueuePauseResult,
  ZResultRecord,
  ZResultSummary,
  ZTaskDetail,
  ZTaskSummary,
  ZWorkerInfo,
} from '@/lib/brokers/dto';
import { ZEditPreview, ZEditReplayResult } from '@/lib/brokers/schema-edit';
import { ZTaskFate } from '@/lib/brokers/dto-fate';
import type { BrokerAdapter } from '@/lib/brokers/types';

/** Each adapter method that answers a DTO, and its definition. */
export const ANSWERS = {
  capabilities: ZCapabilities,
  overview: ZBrokerOverview,
  listTasks: ZPage(ZTaskSummary),
  getTask: ZTaskDetail.nullable(),
  listDead: ZPage(ZDeadSummary),
  deadGroups: ZDeadGroups,
  getDead: ZDeadDetail.nullable(),
  deadHistogram: ZDeadHistogram,
  listWorkers: z.array(ZWorkerInfo),
  listResults: ZPage(ZResultSummary),
  getResult: ZResultRecord.nullable(),
  taskNames: z.array(z.string()),
  taskQueues: z.record(z.string(), z.array(z.string())),
  replayDead: ZActionResult,
  replayDeadPaced: ZActionResult,
  discardDead: ZActionResult,
  removeMoved: ZActionResult,
  revoke: ZActionResult,
  convert: ZActionResult,
  purge: ZPurgeResult,
  enqueue: ZEnqueueResult,
  previewEnqueue: ZEnqueuePreview,
  diagnose: ZDiagnosis,
  previewReplayEdited: ZEditPreview,
  replayEdited: ZEditReplayResult,
  setQueuePaused: ZQueuePauseResult,
  fate: z.array(ZTaskFate),
} satisfies Partial<Record<keyof BrokerAdapter, z.ZodType>>;

/** Throws naming the method and each field that does not match its definition. */
export function assertDto(what: string, schema: z.ZodType, value: unknown): void {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new Error(`${what}: the answer does not match its DTO definition (lib/brokers/dto*.ts)\n${z.prettifyError(r.error)}`);
}

/** The adapter, with every answer of `ANSWERS`' methods checked against its definition. */
export function checkedAdapter(a: BrokerAdapter): BrokerAdapter {
  assertDto('model', ZBrokerModel, a.model);
  return new Proxy(a, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || !(prop in ANSWERS)) return value;
      const schema = ANSWERS[prop as keyof typeof ANSWERS];
      return async (...args: unknown[]) => {
        const out: unknown = await (value as (...x: unknown[]) => Promise<unknown>).apply(target, args);
        assertDto(prop, schema, out);
        return out;
      };
    },
  });
}

export const expectDto = (what: string, schema: z.ZodType, value: unknown) => expect(() => assertDto(what, schema, value)).not.toThrow();
