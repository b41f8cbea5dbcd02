import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AuditPage } from '@/lib/audit/types';
import type {
  ActionResult,
  BrokerOverview,
  DeadDetail,
  DeadGroups,
  DeadSummary,
  EnqueuePreview,
  EnqueueResult,
  Page,
  PurgeResult,
  ResultSummary,
  TaskDetail,
  TaskSummary,
  WorkerInfo,
} from '@/lib/brokers/schema';
import type * as R from './responses';

// The response schemas of the OpenAPI description are written by hand (the DTOs are TypeScript
// interfaces), so the type checker holds them to the DTOs: every value a route returns must be
// one its described schema accepts. A field renamed or retyped in a DTO, and not here, fails
// `tsc` (these run at type-check time; at run time they are no-ops).
/** The schema's named fields, recursively, without the index signature loose objects add. */
type Named<T> = T extends readonly (infer E)[]
  ? Named<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Named<T[K]> }
    : T;
/** Compiles only when every `D` is a value schema `S` describes. */
const accepts = <D, S extends z.ZodType>(ok: [D] extends [Named<z.output<S>>] ? true : never) => ok;

describe('hand-written response schemas match the DTOs the routes return', () => {
  it('brokers, tasks and dead letters', () => {
    expect(accepts<BrokerOverview, typeof R.ZOverview>(true)).toBe(true);
    expect(accepts<Page<TaskSummary>, typeof R.ZTaskPage>(true)).toBe(true);
    expect(accepts<TaskDetail, typeof R.ZTaskDetail>(true)).toBe(true);
    expect(accepts<Page<DeadSummary>, typeof R.ZDeadPage>(true)).toBe(true);
    expect(accepts<DeadDetail, typeof R.ZDeadDetail>(true)).toBe(true);
    expect(accepts<DeadGroups, typeof R.ZDeadGroups>(true)).toBe(true);
  });
  it('results, workers, actions and the audit trail', () => {
    expect(accepts<Page<ResultSummary>, typeof R.ZResultPage>(true)).toBe(true);
    expect(accepts<{ workers: WorkerInfo[] }, typeof R.ZWorkers>(true)).toBe(true);
    expect(accepts<ActionResult, typeof R.ZActionResult>(true)).toBe(true);
    expect(accepts<PurgeResult, typeof R.ZPurgeResult>(true)).toBe(true);
    expect(accepts<EnqueueResult, typeof R.ZEnqueueResult>(true)).toBe(true);
    expect(accepts<EnqueuePreview, typeof R.ZEnqueuePreview>(true)).toBe(true);
    expect(accepts<AuditPage, typeof R.ZAuditPage>(true)).toBe(true);
  });
});
