import { describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { listing } from '@/lib/brokers/model';
import { capabilitiesOf, off, on, requireOn, unsupported } from './capabilities';

const states = [{ key: 'ready' }, { key: 'running' }];

describe('capabilitiesOf', () => {
  it('starts with every capability on and every declared state listed', () => {
    const caps = capabilitiesOf(states);
    expect(caps.replay).toEqual({ on: true });
    expect(caps.pause).toEqual({ on: true });
    expect(caps['list:ready']).toEqual({ on: true });
    expect(caps['list:running']).toEqual({ on: true });
    expect(caps['list:dead']).toBeUndefined();
  });

  it('applies patches in order, the later winning, and skips a falsy one', () => {
    const caps = capabilitiesOf(
      states,
      off(['replay', 'discard'], 'no backend'),
      false,
      listing(states, { on: false, why: 'counts only' }),
      on(['discard']),
      null,
    );
    expect(caps.replay).toEqual({ on: false, why: 'no backend' });
    expect(caps.discard).toEqual({ on: true });
    expect(caps['list:ready']).toEqual({ on: false, why: 'counts only' });
    expect(caps.enqueue).toEqual({ on: true });
  });

  it('copies each patched capability, so changing the result leaves the constant alone', () => {
    const NO_PAUSE = { on: false, why: 'no pause here' };
    const caps = capabilitiesOf(states, { pause: NO_PAUSE });
    caps.pause.why = 'changed';
    expect(NO_PAUSE.why).toBe('no pause here');
  });
});

describe('requireOn', () => {
  it("passes when the capability is on and throws the adapter's refusal when off", () => {
    const caps = capabilitiesOf(states, off(['purge'], 'read-only token'));
    expect(() => requireOn(caps, 'replay', () => new ConsoleError('ReadOnly', 'never'))).not.toThrow();
    expect(() => requireOn(caps, 'purge', (cap) => new ConsoleError('ReadOnly', `cannot purge: ${cap.why}`))).toThrow(
      'cannot purge: read-only token',
    );
  });

  it('treats a listing the adapter does not declare as off', () => {
    const caps = capabilitiesOf(states);
    expect(() => requireOn(caps, 'list:dead', (cap) => new ConsoleError('Unsupported', String(cap.why)))).toThrow(ConsoleError);
  });
});

describe('unsupported', () => {
  it('rejects every call with Unsupported and the reason', async () => {
    const refuse = unsupported('counts only');
    await expect(refuse('any', 1)).rejects.toMatchObject({ code: 'Unsupported', message: 'counts only' });
  });
});
