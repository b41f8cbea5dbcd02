import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { leaseSettings } from '@/lib/leases/hold';
import { adapterContext } from '@/lib/brokers/systems-context';
import { openSqlitePauseLeaseStore, type PauseLeaseStore } from '@/lib/leases/store';
import type { QfClient } from './client';
import { peekPendingQf, stillClaimed, takePendingQf, tookPendingQf } from './pending-out';

// A pending job's take against a scripted QueueFlow (the real server's runs are in
// tests/move-queueflow-pending.int.test.ts): the queue paused under the hold before the job is
// read again, cancelled only while it is the job the move read, the queue resumed either way.

let store: PauseLeaseStore;
beforeEach(async () => {
  store = await openSqlitePauseLeaseStore(':memory:');
});
afterEach(async () => {
  await store.close();
});

const JOB = { id: 'j1', queue_name: 'mail', task_name: 'qf.t', payload: { a: 1 }, created_at: 'x', retry_count: 0 };

/** QueueFlow whose job `j1` reads as `states` in turn (the last one repeats). */
function fakeQf(states: Array<{ status: string; delivery_count: number; scheduled_at?: string } | null>, fail: Record<string, Error> = {}) {
  const calls: string[] = [];
  let paused = false;
  let read = 0;
  const client: QfClient = {
    where: 'fake',
    async get<T>(route: string) {
      if (route === '/api/v1/queues') return { queues: [{ queue: 'mail', pending: 1, scheduled: 0, running: 0, paused }] } as T;
      if (route === '/api/v1/jobs/j1') {
        const st = states[Math.min(read++, states.length - 1)];
        calls.push(`read ${st?.status ?? 'none'}${paused ? ' (paused)' : ''}`);
        if (!st) throw new ConsoleError('NotFound', 'no job');
        return { ...JOB, config: { priority: 3 }, ...st } as T;
      }
      throw new Error(route);
    },
    async post<T>(route: string) {
      const lease = await store.get('qf', 'mail');
      calls.push(`${route}${lease ? ' [held]' : ''}`);
      if (fail[route]) throw fail[route];
      if (route.endsWith('/pause')) paused = true;
      if (route.endsWith('/resume')) paused = false;
      return { queue: 'mail', paused } as T;
    },
  };
  return { client, calls, paused: () => paused };
}

const ctx = () => adapterContext({ leases: leaseSettings(async () => store, { owner: 'me', waitMs: 50, pollMs: 10 }) });
const pending = (delivery_count = 0) => ({ status: 'pending', delivery_count });
const claim = (n = 0) => JSON.stringify({ deliveries: n });

describe('a pending QueueFlow job taken for a move back', () => {
  it('reads a due pending job as a letter with its delivery count as the claim; not pending: null', async () => {
    const f = fakeQf([pending(2)]);
    expect(await peekPendingQf(f.client, 'j1')).toEqual({
      letter: { id: 'j1', jobId: 'j1', task: 'qf.t', queue: 'mail', payload: { a: 1 }, priority: 3 },
      claim: claim(2),
    });
    expect(await peekPendingQf(fakeQf([{ status: 'running', delivery_count: 1 }]).client, 'j1')).toBeNull();
    expect(await peekPendingQf(fakeQf([null]).client, 'j1')).toBeNull();
  });

  it('refuses a job scheduled for later: the target would run it early', async () => {
    const f = fakeQf([{ ...pending(), scheduled_at: '2026-12-04T20:00:00Z' }]);
    await expect(peekPendingQf(f.client, 'j1', Date.parse('2026-12-04T19:00:00Z'))).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { id: 'scheduled for later' },
    });
    expect(await peekPendingQf(f.client, 'j1', Date.parse('2026-12-04T21:00:00Z'))).not.toBeNull();
  });

  it('pauses the queue under the hold, reads the job again, cancels it, resumes and releases the hold', async () => {
    const f = fakeQf([pending()]);
    expect(await takePendingQf(f.client, 'qf', 'j1', claim(), ctx())).toBe(true);
    expect(f.calls).toEqual([
      'read pending',
      '/api/v1/queues/mail/pause [held]',
      'read pending (paused)',
      '/api/v1/jobs/j1/cancel [held]',
      '/api/v1/queues/mail/resume [held]',
    ]);
    expect(f.paused()).toBe(false);
    expect(await store.get('qf', 'mail')).toBeNull();
  });

  it('a worker leased it before the pause (running, or back to pending with one more delivery): nothing cancelled', async () => {
    for (const later of [{ status: 'running', delivery_count: 1 }, pending(1)]) {
      const f = fakeQf([pending(), later]);
      expect(await takePendingQf(f.client, 'qf', 'j1', claim(), ctx())).toBe(false);
      expect(f.calls.filter((c) => c.includes('/cancel'))).toEqual([]);
      expect(f.paused()).toBe(false);
    }
    const gone = fakeQf([{ status: 'completed', delivery_count: 1 }]);
    expect(await takePendingQf(gone.client, 'qf', 'j1', claim(), ctx())).toBe(false);
    expect(gone.calls).toEqual(['read completed']);
    expect(stillClaimed({ status: 'pending', delivery_count: 0 }, 'not json')).toBe(false);
  });

  it('a cancel QueueFlow refuses as terminal (409) is not a take; a failing one throws, and the queue is resumed either way', async () => {
    const conflict = fakeQf([pending()], { '/api/v1/jobs/j1/cancel': new ConsoleError('Conflict', 'conflict: job is already completed') });
    expect(await takePendingQf(conflict.client, 'qf', 'j1', claim(), ctx())).toBe(false);
    expect(conflict.paused()).toBe(false);
    const down = fakeQf([pending()], { '/api/v1/jobs/j1/cancel': new ConsoleError('BrokerUnavailable', 'down') });
    await expect(takePendingQf(down.client, 'qf', 'j1', claim(), ctx())).rejects.toMatchObject({ code: 'BrokerUnavailable' });
    expect(down.paused()).toBe(false);
    expect(await store.get('qf', 'mail')).toBeNull();
  });

  it('another console holding the queue: Conflict, nothing paused or cancelled', async () => {
    const other = adapterContext({ leases: leaseSettings(async () => store, { owner: 'other', ttlMs: 60_000 }) });
    const held = await other.leases.take('qf', 'mail', {}, async () => null);
    expect('held' in held).toBe(true);
    const f = fakeQf([pending()]);
    await expect(takePendingQf(f.client, 'qf', 'j1', claim(), ctx())).rejects.toMatchObject({ code: 'Conflict' });
    expect(f.calls).toEqual(['read pending']);
  });

  it('an earlier take shows as the job cancelled; running or finished: a worker took it; gone: unknown', async () => {
    expect(await tookPendingQf(fakeQf([{ status: 'cancelled', delivery_count: 0 }]).client, 'j1')).toBe(true);
    expect(await tookPendingQf(fakeQf([{ status: 'running', delivery_count: 1 }]).client, 'j1')).toBe(false);
    await expect(tookPendingQf(fakeQf([null]).client, 'j1')).rejects.toMatchObject({ code: 'NotFound' });
  });
});
