// Helpers shared by the battery's parts (see ../contract.ts).
import { randomUUID } from 'node:crypto';
import { ZDeadListQuery, ZTaskListQuery, type TaskSummary } from '../schema';
import type { BrokerAdapter } from '../types';
import type { ContractFixture, ContractSeeder } from './types';

export const uniqueQueue = (tag = 'q') => `ct-${tag}-${randomUUID().slice(0, 8)}`;
export const TRACEBACK = (last: string) =>
  `Traceback (most recent call last):\n  File "/app/tasks.py", line 3, in boom\n    raise ValueError("x")\n${last}\n`;

export const tasks = (a: BrokerAdapter, q: Partial<ReturnType<typeof ZTaskListQuery.parse>>) => a.listTasks(ZTaskListQuery.parse(q));
export const dead = (a: BrokerAdapter, q: Partial<ReturnType<typeof ZDeadListQuery.parse>>) => a.listDead(ZDeadListQuery.parse(q));

export async function collect(a: BrokerAdapter, q: Partial<ReturnType<typeof ZTaskListQuery.parse>>, limit: number): Promise<TaskSummary[]> {
  const out: TaskSummary[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await tasks(a, { ...q, limit, cursor });
    out.push(...page.items);
    if (!page.nextCursor) return out;
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not end');
}

export type Ctx = () => { fx: ContractFixture; a: BrokerAdapter; s: ContractSeeder };

