import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { leaseSettings } from '@/lib/leases/hold';
import { adapterContext } from '@/lib/brokers/systems-context';
import { openSqlitePauseLeaseStore, type PauseLeaseStore } from '@/lib/leases/store';
import type { QfClient } from './client';
import { replayEditedQf } from './edit-replay';

// The edit-replay's use of its pause lease against a scripted QueueFlow (the real server's runs
// are in tests/roundtrip/edit-replay-queueflow*.int.test.ts): what is recorded before each step,
// and what is left for a recovery.

let store: PauseLeaseStore;
beforeEach(async () => {
  store = await openSqlitePauseLeaseStore(':memory:');
});
afterEach(async () => {
  await store.close();
});

const JOB = {
  id: 'orig',
  queue_name: 'mail',
  task_name: 't',
  payload: { a: 1 },
  status: 'failed',
  created_at: 'x',
  delivery_count: 1,
  retry_count: 0,
};

function fakeQf(o: { paused?: boolean; fail?: Record<string, ConsoleError> } = {}) {
  const calls: string[] = [];
  let paused = o.paused ?? false;
  let replayed = false;
  const client: QfClient = {
    where: 'fake',
    async get<T>(route: string) {
      if (route === '/api/v1/queues') return { queues: [{ queue: 'mail', pending: 0, scheduled: 0, running: 0, paused }] } as T;
      if (route === '/api/v1/dlq/7')
        return { id: 7, job_id: 'orig', reason: 'x', created_at: 'x', ...(replayed ? { replay_job_id: 'copy' } : {}) } as T;
      if (route === '/api/v1/jobs/orig') return JOB as T;
      throw new Error(route);
    },
    async post<T>(route: string) {
      const lease = await store.get('qf', 'mail');
      calls.push(`${route} [${lease ? `held${lease.pausedByConsole ? ', paused by console' : ''}` : 'no lease'}]`);
      const f = o.fail?.[route];
      if (f) throw f;
      if (route.endsWith('/pause')) paused = true;
      if (route.endsWith('/resume')) paused = false;
      if (route === '/api/v1/dlq/7/replay') return ((replayed = true), { job_id: 'copy' }) as T;
      if (route === '/api/v1/jobs') return { job_id: 'edited' } as T;
      return { queue: 'mail', paused } as T;
    },
  };
  return { client, calls, paused: () => paused };
}

const me = (owner = 'me') => adapterContext({ leases: leaseSettings(async () => store, { owner, waitMs: 50, pollMs: 10 }) });
const edit = { kwargs: [['a', { t: 'int', v: '2' }]] as Array<[string, { t: 'int'; v: string }]> };

describe('QueueFlow edit-replay under its pause lease', () => {
  it('holds the lease through every write, recording that it paused the queue before it does, and releases it after the resume', async () => {
    const f = fakeQf();
    const r = await replayEditedQf(f.client, 'qf', '7', edit, me());
    expect(r.outcome).toMatchObject({ outcome: 'ok', taskId: 'edited' });
    expect(f.calls).toEqual([
      '/api/v1/queues/mail/pause [held, paused by console]',
      '/api/v1/dlq/7/replay [held, paused by console]',
      '/api/v1/jobs [held, paused by console]',
      '/api/v1/jobs/copy/cancel [held, paused by console]',
      '/api/v1/queues/mail/resume [held, paused by console]',
    ]);
    expect(await store.get('qf', 'mail')).toBeNull();
  });

  it('on a queue paused before: neither pauses nor resumes it, and says so', async () => {
    const f = fakeQf({ paused: true });
    const r = await replayEditedQf(f.client, 'qf', '7', edit, me());
    expect(f.calls.map((c) => c.split(' ')[0])).toEqual(['/api/v1/dlq/7/replay', '/api/v1/jobs', '/api/v1/jobs/copy/cancel']);
    expect(f.calls[0]).toContain('[held]');
    expect(r.outcome.message).toContain('was paused before and stays paused');
    expect(await store.get('qf', 'mail')).toBeNull();
  });

  it('keeps the queue paused on purpose when the copy cannot be cancelled: the lease is released, so no recovery resumes it', async () => {
    const f = fakeQf({ fail: { '/api/v1/jobs/copy/cancel': new ConsoleError('Conflict', 'QueueFlow: job is running') } });
    const r = await replayEditedQf(f.client, 'qf', '7', edit, me());
    expect(r.outcome.message).toContain('queue mail stays paused; cancel job copy, then resume it');
    expect(f.calls.some((c) => c.includes('/resume'))).toBe(false);
    expect(f.paused()).toBe(true);
    expect(await store.get('qf', 'mail')).toBeNull();
  });

  it('leaves the lease for a recovery when the resume fails, and says the console resumes the queue', async () => {
    const f = fakeQf({ fail: { '/api/v1/queues/mail/resume': new ConsoleError('BrokerUnavailable', 'cannot reach QueueFlow') } });
    const r = await replayEditedQf(f.client, 'qf', '7', edit, me());
    expect(r.outcome.outcome).toBe('ok');
    expect(r.outcome.message).toContain(
      'queue mail could not be resumed (cannot reach QueueFlow): the console resumes it once QueueFlow answers',
    );
    expect(await store.get('qf', 'mail')).toMatchObject({
      owner: 'me',
      pausedByConsole: true,
      detail: { letter: '7', copy: 'copy', edited: 'edited' },
    });
  });

  it("is refused with nothing written while another console's live lease outlasts the wait", async () => {
    await store.acquire({
      broker: 'qf',
      queue: 'mail',
      owner: 'other',
      startedAt: '2026-12-02T01:00:00.000Z',
      deadlineMs: Date.now() + 60_000,
      pausedByConsole: true,
      detail: {},
    });
    const f = fakeQf({ paused: true });
    const r = await replayEditedQf(f.client, 'qf', '7', edit, me());
    expect(r.outcome).toMatchObject({ id: '7', outcome: 'conflict' });
    expect(r.outcome.message).toContain('nothing was changed: another console (other) has been replaying a letter of queue mail');
    expect(f.calls).toEqual([]);
    expect(await store.get('qf', 'mail')).toMatchObject({ owner: 'other' });
  });
});
