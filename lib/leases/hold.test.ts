import { describe, expect, it, vi } from 'vitest';
import { T0, withLeaseStore } from '@/tests/support/lease-store';
import { leaseSettings, staleLeases, takeLease, type LeaseSettings } from './hold';
import { type PauseLease, type PauseLeaseStore } from './store';

// The lease logic on a real (in-memory) SQLite store with fake time: Date.now and the renewal
// timer are vitest's fake timers, and a waiting taker's sleep advances them.

let store: PauseLeaseStore;
withLeaseStore((s) => (store = s));

const as = (owner: string, o: Partial<LeaseSettings> = {}) =>
  leaseSettings(async () => store, {
    owner,
    ttlMs: 30_000,
    waitMs: 10_000,
    pollMs: 1_000,
    sleep: async (ms) => void (await vi.advanceTimersByTimeAsync(ms)),
    ...o,
  });
const never = async (l: PauseLease) => {
  throw new Error(`recover called for ${l.owner}`);
};

describe('console pause leases', () => {
  it('gives a queue to one holder: a second one waits, then is refused naming the holder', async () => {
    const a = await takeLease(as('A'), 'qf', 'mail', { letter: '1' }, never);
    expect('held' in a && a.held.lease).toMatchObject({ owner: 'A', startedAt: '2026-12-02T01:00:00.000Z', deadlineMs: T0 + 30_000 });
    // Another queue or broker is independent.
    expect('held' in (await takeLease(as('B'), 'qf', 'other', {}, never))).toBe(true);
    expect('held' in (await takeLease(as('B'), 'qf2', 'mail', {}, never))).toBe(true);
    const b = await takeLease(as('B'), 'qf', 'mail', { letter: '2' }, never);
    expect(b).toEqual({ busy: expect.objectContaining({ owner: 'A', detail: { letter: '1' } }) });
    expect(Date.now() - T0).toBeGreaterThanOrEqual(10_000);
    // A renewed meanwhile (its timer): still live after the 10 s wait, its deadline moved on.
    expect((await store.get('qf', 'mail'))!.deadlineMs).toBeGreaterThan(T0 + 30_000);
  });

  it('hands the queue to a waiting holder as soon as the first one releases it', async () => {
    const a = await takeLease(as('A'), 'qf', 'mail', {}, never);
    if (!('held' in a)) throw new Error('not held');
    let polls = 0;
    const b = await takeLease(
      as('B', {
        sleep: async (ms) => {
          if (++polls === 2) await a.held.release();
          await vi.advanceTimersByTimeAsync(ms);
        },
      }),
      'qf',
      'mail',
      { letter: '2' },
      never,
    );
    expect(polls).toBe(2);
    expect('held' in b && b.held.lease.owner).toBe('B');
    expect(await store.get('qf', 'mail')).toMatchObject({ owner: 'B', detail: { letter: '2' } });
  });

  it('keeps a working holder live by renewing, and a gone holder (no renewals) is recovered after its deadline', async () => {
    const a = await takeLease(as('A'), 'qf', 'mail', {}, never);
    if (!('held' in a)) throw new Error('not held');
    await vi.advanceTimersByTimeAsync(100_000);
    expect(await staleLeases(as('B'), 'qf', 3)).toEqual([]);
    a.held.abandon(); // the process is gone: nothing renews it
    await vi.advanceTimersByTimeAsync(29_000);
    expect(await staleLeases(as('B'), 'qf', 3)).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    const [stale] = await staleLeases(as('B'), 'qf', 3);
    expect(stale).toMatchObject({ owner: 'A' });
    const recovered: string[] = [];
    const b = await takeLease(as('B'), 'qf', 'mail', {}, async (l) => {
      recovered.push(l.owner);
      // Two recoverers at once: exactly one takes it over.
      const wins = await Promise.all(['B', 'C'].map((to) => store.takeOver('qf', 'mail', l.owner, to, Date.now(), Date.now() + 30_000)));
      expect(wins.filter(Boolean)).toHaveLength(1);
      await store.release('qf', 'mail', wins[0] ? 'B' : 'C');
    });
    expect(recovered).toEqual(['A']);
    expect('held' in b && b.held.lease.owner).toBe('B');
  });

  it('a holder whose lease was taken over stops: its next step throws and its release leaves the new holder alone', async () => {
    const a = await takeLease(as('A'), 'qf', 'mail', {}, never);
    if (!('held' in a)) throw new Error('not held');
    a.held.abandon(); // stalled: no renewals
    await vi.advanceTimersByTimeAsync(31_000);
    expect(await store.takeOver('qf', 'mail', 'A', 'R', Date.now(), Date.now() + 30_000)).toBe(true);
    // Not stale any more: a second takeover is refused.
    expect(await store.takeOver('qf', 'mail', 'R', 'S', Date.now(), Date.now() + 30_000)).toBe(false);
    await expect(a.held.mark({ pausedByConsole: true })).rejects.toMatchObject({ code: 'Conflict' });
    expect(a.held.lost).toBe(true);
    await a.held.release();
    expect(await store.get('qf', 'mail')).toMatchObject({ owner: 'R', pausedByConsole: false });
  });

  it('records progress with each step (what recovery reads), and a release deletes the row', async () => {
    const a = await takeLease(as('A'), 'qf', 'mail', { letter: '7' }, never);
    if (!('held' in a)) throw new Error('not held');
    await vi.advanceTimersByTimeAsync(5_000);
    await a.held.mark({ pausedByConsole: true });
    await a.held.mark({ detail: { letter: '7', copy: 'c1' } });
    expect(await store.get('qf', 'mail')).toMatchObject({
      pausedByConsole: true,
      detail: { letter: '7', copy: 'c1' },
      deadlineMs: T0 + 35_000,
    });
    await a.held.release();
    expect(await store.get('qf', 'mail')).toBeNull();
  });

  it('gives up after repeated stale holds that recovery does not clear', async () => {
    await store.acquire({
      broker: 'qf',
      queue: 'mail',
      owner: 'dead',
      startedAt: 'x',
      deadlineMs: T0 - 1,
      pausedByConsole: true,
      detail: {},
    });
    let calls = 0;
    await expect(takeLease(as('B'), 'qf', 'mail', {}, async () => void calls++)).rejects.toMatchObject({ code: 'Internal' });
    expect(calls).toBe(3);
  });
});
