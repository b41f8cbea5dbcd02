import { describe, expect, it, vi } from 'vitest';
import { T0, withLeaseStore } from '@/tests/support/lease-store';
import { leaseSettings } from '@/lib/leases/hold';
import { adapterContext } from '@/lib/brokers/systems-context';
import { type PauseLease, type PauseLeaseStore } from '@/lib/leases/store';
import type { QfClient } from './client';
import { createHolds, holdWarnings, RECOVER_EVERY_MS } from './holds';

// When the overview's read recovers a stale lease, and what it shows while one holds a queue.

let store: PauseLeaseStore;
withLeaseStore((s) => (store = s));

const lease = (o: Partial<PauseLease>): PauseLease => ({
  broker: 'qf',
  queue: 'mail',
  owner: 'other-console',
  startedAt: '2026-12-02T00:59:00.000Z',
  deadlineMs: T0 + 20_000,
  pausedByConsole: true,
  detail: {},
  ...o,
});

function qf() {
  const calls: string[] = [];
  const client: QfClient = {
    where: 'fake',
    get: async <T>(route: string) => (
      calls.push(`GET ${route}`),
      { queues: [{ queue: 'mail', pending: 0, scheduled: 0, running: 0, paused: true }] } as T
    ),
    post: async <T>(route: string) => (calls.push(`POST ${route}`), { queue: 'mail', paused: false } as T),
  };
  return { client, calls };
}

describe('QueueFlow holds on the overview', () => {
  it('says a live hold pauses the queue, and recovers nothing while it lives', async () => {
    await store.acquire(lease({}));
    const f = qf();
    const h = createHolds(
      f.client,
      'qf',
      adapterContext({ leases: leaseSettings(async () => store, { owner: 'me' }) }),
      async () => true,
      () => undefined,
    );
    const held = await h.read();
    expect(holdWarnings(held, Date.now())).toEqual([
      "Queue mail is paused by the console's edit-replay since 2026-12-02T00:59:00.000Z (console other-console); it resumes the queue when the edit is done.",
    ]);
    expect(f.calls).toEqual([]);
    await expect(h.guard('mail')).rejects.toMatchObject({ code: 'Conflict' });
    // A hold on a queue that was paused before is not the console's pause: no warning.
    expect(holdWarnings([lease({ pausedByConsole: false })], Date.now())).toEqual([]);
  });

  it('recovers a stale hold at the next read that may write, at most once per interval', async () => {
    await store.acquire(lease({ deadlineMs: T0 - 1 }));
    const f = qf();
    let may = false;
    const h = createHolds(
      f.client,
      'qf',
      adapterContext({ leases: leaseSettings(async () => store, { owner: 'me' }) }),
      async () => may,
      () => undefined,
    );
    // Read-only: shown as stale, left alone.
    const held = await h.read();
    expect(holdWarnings(held, Date.now())[0]).toContain('whose console stopped');
    expect(f.calls).toEqual([]);
    may = true;
    await h.read();
    expect(f.calls).toEqual([]); // within RECOVER_EVERY_MS of the last pass
    await vi.advanceTimersByTimeAsync(RECOVER_EVERY_MS);
    expect(await h.read()).toEqual([]);
    expect(f.calls).toEqual(['GET /api/v1/queues', 'POST /api/v1/queues/mail/resume']);
  });
});
