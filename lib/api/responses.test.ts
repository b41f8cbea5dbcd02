import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { MoveResult } from '@/lib/brokers/move';
import type { TaskSightings } from '@/lib/brokers/enqueue-names';
import { ZBrokerOverview, ZDeadDetail, ZTaskDetail } from '@/lib/brokers/dto';
import { ZBulkJobView } from '@/lib/bulk/schema';
import * as R from './responses';

// The answers' schemas are the DTOs' own definitions (their types are inferred from them); the
// two written here over types of server-only modules are held to those types at type-check
// time: a field renamed or retyped there, and not here, fails `tsc`.
type SameAs<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const same = <D, S extends z.ZodType>(ok: SameAs<D, z.output<S>>) => ok;

describe('the response schemas of the description', () => {
  it('are the DTO definitions themselves, not copies', () => {
    expect(R.ZOverview).toBe(ZBrokerOverview);
    expect(R.ZTaskDetail).toBe(ZTaskDetail);
    expect(R.ZDeadDetail).toBe(ZDeadDetail);
    expect(R.ZBulkJob).toBe(ZBulkJobView);
  });
  it('match the types of the answers typed in server-only modules', () => {
    expect(same<MoveResult, typeof R.ZMoveResult>(true)).toBe(true);
    expect(same<TaskSightings, typeof R.ZTaskNames>(true)).toBe(true);
  });
});
