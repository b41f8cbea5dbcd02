import { describe, expect, it } from 'vitest';
import { CAPABILITIES, type BrokerOverview, type Capabilities } from '@/lib/brokers/schema';
import type { Principal } from './grants';
import { MASKED_COPIES, overviewFor } from './mask';

const source = (): BrokerOverview => ({
  id: 'b',
  name: 'b',
  kind: 'sqlite',
  serverInfo: null,
  readOnly: false,
  capabilities: Object.fromEntries(CAPABILITIES.map((k) => [k, { on: true }])) as Capabilities,
  queues: [],
  totals: { counts: { ready: 0, scheduled: 0, running: 0 }, dead: 0 },
  workers: { alive: 0, stale: 0 },
  readAt: new Date(0).toISOString(),
});
const who = (user: string, role: Principal['role'], readOnlyBrokers: string[] = []): Principal => ({
  user,
  role,
  via: 'session',
  readOnlyBrokers,
});

describe('overviewFor: one masked copy per reason of a shared overview', () => {
  it('gives the same copy to the same principal, and the operator the source itself', () => {
    const o = source();
    const vera = overviewFor(o, who('vera', 'viewer'));
    expect(overviewFor(o, who('vera', 'viewer'))).toBe(vera);
    expect(vera.capabilities.replay).toEqual({ on: false, why: 'vera is a viewer', code: 'Forbidden' });
    expect(overviewFor(o, who('olga', 'operator'))).toBe(o);
    expect(o.capabilities.replay).toEqual({ on: true }); // the shared source is never changed
  });

  it('keeps principals apart: each copy names its own reason', () => {
    const o = source();
    const vera = overviewFor(o, who('vera', 'viewer'));
    const vic = overviewFor(o, who('vic', 'viewer'));
    const ro = overviewFor(o, who('otto', 'operator', ['b']));
    const nobody = overviewFor(o, null);
    expect(new Set([vera, vic, ro, nobody]).size).toBe(4);
    expect(vic.capabilities.replay?.why).toBe('vic is a viewer');
    expect(ro.capabilities.replay?.why).toBe('broker "b" is read-only for otto');
    expect(nobody.capabilities.replay?.why).toBe('sign in first');
  });

  it('makes a new copy for a new overview (the next shared read)', () => {
    const first = overviewFor(source(), who('vera', 'viewer'));
    expect(overviewFor(source(), who('vera', 'viewer'))).not.toBe(first);
  });

  it('keeps at most MASKED_COPIES per overview; past that, each call masks afresh', () => {
    const o = source();
    for (let i = 0; i < MASKED_COPIES; i++) overviewFor(o, who(`v${i}`, 'viewer'));
    const late = overviewFor(o, who('late', 'viewer'));
    expect(overviewFor(o, who('late', 'viewer'))).not.toBe(late);
    expect(overviewFor(o, who('late', 'viewer'))).toEqual(late);
    expect(overviewFor(o, who('v0', 'viewer'))).toBe(overviewFor(o, who('v0', 'viewer')));
  });
});
