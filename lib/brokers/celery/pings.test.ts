import { describe, expect, it } from 'vitest';
import { keptPings } from './pings';

describe('keptPings', () => {
  it('waits for the first ping, answers later ones from it and pings again in the background once it is old', async () => {
    let t = 1000;
    let n = 0;
    const release: Array<() => void> = [];
    const ping = () => new Promise<number>((resolve) => release.push(() => resolve(++n)));
    const workers = keptPings(ping, 10_000, () => t);
    const first = workers();
    release.shift()!();
    expect(await first).toEqual({ value: 1, at: 1000 });
    t += 5_000;
    expect(await workers()).toEqual({ value: 1, at: 1000 });
    expect(release).toHaveLength(0); // fresh enough: no ping
    t += 5_000;
    expect(await workers()).toEqual({ value: 1, at: 1000 }); // old: answered at once, ping started
    expect(await workers()).toEqual({ value: 1, at: 1000 }); // one ping at a time
    expect(release).toHaveLength(1);
    release.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(await workers()).toEqual({ value: 2, at: 11_000 });
  });

  it('keeps the last answer when a background ping fails, and fails the first overview with the first ping', async () => {
    let t = 0;
    let fail = false;
    const workers = keptPings(
      async () => {
        if (fail) throw new Error('down');
        return 'ok';
      },
      10,
      () => t,
    );
    expect((await workers()).value).toBe('ok');
    fail = true;
    t = 100;
    expect((await workers()).value).toBe('ok');
    await new Promise((r) => setTimeout(r, 0));
    expect((await workers()).value).toBe('ok');
    await expect(keptPings(async () => Promise.reject(new Error('down')))()).rejects.toThrow('down');
  });
});
