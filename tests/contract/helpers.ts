// Helpers shared by the battery's parts (see ../contract.ts).
import { randomUUID } from 'node:crypto';
import { it } from 'vitest';
import {
  listCapability,
  stateOfRole,
  ZDeadListQuery,
  ZTaskListQuery,
  type Capability,
  type StateRole,
  type TaskListQuery,
  type TaskSummary,
} from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import type { ContractFixture, ContractSeeder } from './types';

export const uniqueQueue = (tag = 'q') => `ct-${tag}-${randomUUID().slice(0, 8)}`;
export const TRACEBACK = (last: string) =>
  `Traceback (most recent call last):\n  File "/app/tasks.py", line 3, in boom\n    raise ValueError("x")\n${last}\n`;

/** The key of the state that plays `role` in the adapter's declared model. A case that needs it
 *  says so (`Needs.roles`/`lists`), so it is skipped, never run, where no state plays it. */
export function keyOf(a: BrokerAdapter, role: StateRole): string {
  const st = stateOfRole(a.model.states, role);
  if (!st) throw new Error(`the adapter declares no state that plays the "${role}" role`);
  return st.key;
}

type ListQuery = Partial<Omit<TaskListQuery, 'state'>> & { state?: string };
/** One page of the adapter's list; without a state, of the state that plays `waiting` (what the
 *  service fills in for a request that names none). */
export const tasks = (a: BrokerAdapter, q: ListQuery) => a.listTasks({ ...ZTaskListQuery.parse(q), state: q.state ?? keyOf(a, 'waiting') });
export const dead = (a: BrokerAdapter, q: Partial<ReturnType<typeof ZDeadListQuery.parse>>) => a.listDead(ZDeadListQuery.parse(q));

export async function collect(a: BrokerAdapter, q: ListQuery, limit: number): Promise<TaskSummary[]> {
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

/**
 * What a case needs from the adapter: capabilities that must be on, and states by the role they
 * play (`waiting`, `scheduled`, `running`), never by key: each system names its own states.
 * `lists`: roles whose state must also be listable here (its `list:<key>` capability on).
 */
export interface Needs {
  caps?: Capability[];
  roles?: StateRole[];
  lists?: StateRole[];
}

/** Why the adapter can't take this case (its own reason when a capability is off), or null. */
export async function unmet(a: BrokerAdapter, needs: Needs): Promise<string | null> {
  const roles = [...(needs.roles ?? []), ...(needs.lists ?? [])];
  for (const role of roles) if (!stateOfRole(a.model.states, role)) return `no declared state plays the "${role}" role on this broker`;
  const wanted = [...(needs.caps ?? []), ...(needs.lists ?? []).map((role) => listCapability(keyOf(a, role)))];
  const caps = wanted.length ? await a.capabilities() : null;
  for (const c of wanted) {
    const cap = caps?.[c] ?? { on: false, why: 'the adapter does not declare it' };
    if (!cap.on) return `${c} is off on this broker: ${cap.why ?? 'not available'}`;
  }
  return null;
}

/**
 * One case of a battery, chosen by what the adapter declares: skipped with the adapter's own
 * reason when a capability it needs is off or no declared state plays a role it needs.
 */
export function contractCase(ctx: Ctx, title: string, needs: Needs, run: (skip: (why: string) => void) => Promise<void>): void {
  it(title, async ({ skip }) => {
    const why = await unmet(ctx().a, needs);
    if (why) return skip(why);
    await run((note) => skip(note));
  });
}
