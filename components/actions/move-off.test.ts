import { describe, expect, it } from 'vitest';
import type { BrokerModel, Capabilities } from '@/lib/brokers/model';
import { deadMoveOff } from './move-off';

const caps = (off: Record<string, string>) =>
  new Proxy({} as Capabilities, { get: (_, k: string) => (k in off ? { on: false, why: off[k] } : { on: true }) });
const leaving = (leaves?: 'replay' | 'discard') => ({ calls: { leaves } }) as unknown as BrokerModel;

describe('deadMoveOff', () => {
  it('needs discard where a moved letter is deleted', () => {
    expect(deadMoveOff(caps({ discard: 'no delete' }), leaving())).toBe('no delete');
    expect(deadMoveOff(caps({ replay: 'no replay' }), leaving('discard'))).toBeUndefined();
  });

  it('needs replay and pause, not discard, where a moved letter leaves by its replay (QueueFlow)', () => {
    expect(deadMoveOff(caps({ discard: 'QueueFlow has no endpoint to delete a dead letter' }), leaving('replay'))).toBeUndefined();
    expect(deadMoveOff(caps({ replay: 'read-only token' }), leaving('replay'))).toBe('read-only token');
    expect(deadMoveOff(caps({ pause: 'no pause' }), leaving('replay'))).toBe('no pause');
  });

  it('says nothing while the capabilities are unknown', () => {
    expect(deadMoveOff(undefined, leaving('replay'))).toBeUndefined();
  });
});
