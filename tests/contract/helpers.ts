// Helpers shared by the battery's parts (see ../contract.ts).
import { randomUUID } from 'node:crypto';
import { it } from 'vitest';
import { ZDeadListQuery, ZTaskListQuery, type Capability, type TaskSummary } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import type { ContractFixture, ContractSeeder } from './types';

export const uniqueQueue = (tag = 'q') => `ct-${tag}-${randomUUID().slice(0, 8)}`;
export const TRACEBACK = (last: string) =>
  `Traceback (most recent call last):\n  File "/app/tasks.py", line 3, in boom\n    raise ValueError("x")\n${last}\n`;

export const tasks = (a: BrokerAdapter, q: Partial<ReturnType<typeof ZTaskListQuery.parse>>) => a.listTasks(ZTaskListQuery.parse(q));
export const dead = (a: BrokerAdapter, q: Partial<ReturnType<typeof ZDeadListQuery.parse>>) => a.listDead(ZDeadListQuery.parse(q));

export async function collect(
  a: BrokerAdapter,
  q: Partial<ReturnType<typeof ZTaskListQuery.parse>>,
  limit: number,
): Promise<TaskSummary[]> {
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

/** A waiting task's arguments and ETA as its workers will read them (the seeder's decoding, or
 *  potatoq's compact message: its payload is the message itself). */
export async function jobMessage(s: ContractSeeder, id: string): Promise<{ args: unknown; eta?: unknown } | null> {
  if (s.jobMessage) return s.jobMessage(id);
  const payload = await s.jobPayload(id);
  return payload === null ? null : (JSON.parse(payload) as { args: unknown; eta?: unknown });
}

export type Ctx = () => { fx: ContractFixture; a: BrokerAdapter; s: ContractSeeder };

/** What a case needs from the adapter: capabilities that must be on, states it must declare. */
export interface Needs {
  caps?: Capability[];
  states?: string[];
}

/** Why the adapter can't take this case (its own reason when a capability is off), or null. */
export async function unmet(a: BrokerAdapter, needs: Needs): Promise<string | null> {
  const caps = needs.caps?.length ? await a.capabilities() : null;
  for (const c of needs.caps ?? []) if (caps && !caps[c].on) return `${c} is off on this broker: ${caps[c].why ?? 'not available'}`;
  for (const st of needs.states ?? []) if (!a.model.states.some((x) => x.key === st)) return `the adapter declares no "${st}" state`;
  return null;
}

/**
 * One case of a battery, chosen by what the adapter declares: skipped with the adapter's own
 * reason when a capability it needs is off or a state it needs is not declared.
 */
export function contractCase(ctx: Ctx, title: string, needs: Needs, run: (skip: (why: string) => void) => Promise<void>): void {
  it(title, async ({ skip }) => {
    const why = await unmet(ctx().a, needs);
    if (why) return skip(why);
    await run((note) => skip(note));
  });
}
