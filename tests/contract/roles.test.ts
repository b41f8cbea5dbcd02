import { describe, expect, it } from 'vitest';
import { allCapabilities, type StateDecl, type StateRole } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { keyOf, tasks, unmet } from './helpers';

// The battery picks its cases by the role a state plays, never by a state's key: a made-up
// system whose waiting work is `pending` (declared after a `waiting` of its own that plays no
// role) runs the cases that need waiting work, and skips, saying why, those that need a role it lacks.

const st = (key: string, owned: boolean, role?: StateRole): StateDecl => ({
  key,
  label: key,
  time: { field: 'createdAt', label: 't' },
  order: { by: 'claim', label: 'claim order' },
  owned,
  ...(role ? { role } : {}),
});
const STATES = [st('waiting', false), st('pending', false, 'waiting'), st('running', true, 'running')];

function adapterWith(states: StateDecl[], off: Record<string, string> = {}): BrokerAdapter & { asked: unknown[] } {
  const asked: unknown[] = [];
  const caps = allCapabilities(states);
  for (const [k, why] of Object.entries(off)) caps[k as keyof typeof caps] = { on: false, why };
  return {
    asked,
    model: { states },
    capabilities: async () => caps,
    listTasks: async (q: unknown) => (asked.push(q), { items: [], nextCursor: null }),
  } as unknown as BrokerAdapter & { asked: unknown[] };
}

describe("the battery's choice of cases by role", () => {
  it('finds each role by its declaration, whatever the state is called', async () => {
    const a = adapterWith(STATES);
    expect([keyOf(a, 'waiting'), keyOf(a, 'running')]).toEqual(['pending', 'running']);
    expect(await unmet(a, { lists: ['waiting', 'running'] })).toBeNull();
    // A list without a state is of the waiting work, as the service fills it in.
    await tasks(a, { queue: 'q' });
    expect(a.asked).toEqual([expect.objectContaining({ state: 'pending', queue: 'q' })]);
  });

  it('skips a case needing a role no state plays, and one whose state cannot be listed, saying why', async () => {
    const a = adapterWith(STATES, { 'list:pending': 'this system lists pending jobs only through its CLI' });
    expect(await unmet(a, { roles: ['scheduled'] })).toBe('no declared state plays the "scheduled" role on this broker');
    expect(await unmet(a, { lists: ['waiting'] })).toBe(
      'list:pending is off on this broker: this system lists pending jobs only through its CLI',
    );
    expect(await unmet(a, { roles: ['waiting'], caps: ['revoke'] })).toBeNull();
    expect(() => keyOf(a, 'scheduled')).toThrow(/scheduled/);
  });
});
