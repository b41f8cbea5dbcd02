import { describe, expect, it } from 'vitest';
import { T0, withLeaseStore } from '@/tests/support/lease-store';
import { consoleEntry } from '@/lib/audit/record';
import type { AuditEntry } from '@/lib/audit/types';
import { ConsoleError } from '@/lib/brokers/errors';
import { leaseSettings } from '@/lib/leases/hold';
import { type PauseLease, type PauseLeaseStore } from '@/lib/leases/store';
import type { QfClient } from './client';
import { recoverQfLease } from './edit-recover';

// Recovery's decisions against a scripted QueueFlow (the real server's runs are in
// tests/roundtrip/edit-replay-queueflow-lease.int.test.ts): what it calls, in which order.

let store: PauseLeaseStore;
withLeaseStore((s) => (store = s));

function fakeQf(o: { paused: boolean; copyStatus?: string; cancel?: 'ok' | 'conflict' | 'down'; replayJob?: string }) {
  const calls: string[] = [];
  const client: QfClient = {
    where: 'fake',
    async get<T>(route: string) {
      calls.push(`GET ${route}`);
      if (route === '/api/v1/queues') return { queues: [{ queue: 'mail', pending: 1, scheduled: 0, running: 0, paused: o.paused }] } as T;
      if (route.startsWith('/api/v1/dlq/'))
        return { id: 7, job_id: 'orig', reason: 'x', created_at: 'x', ...(o.replayJob ? { replay_job_id: o.replayJob } : {}) } as T;
      if (route.startsWith('/api/v1/jobs/'))
        return {
          id: 'copy',
          queue_name: 'mail',
          task_name: 't',
          payload: {},
          status: o.copyStatus ?? 'pending',
          created_at: 'x',
          delivery_count: 0,
          retry_count: 0,
        } as T;
      throw new Error(route);
    },
    async post<T>(route: string, _body: unknown, headers?: Record<string, string>) {
      calls.push(`POST ${route}${headers?.['idempotency-key'] ? ` ${headers['idempotency-key']}` : ''}`);
      if (route === '/api/v1/jobs') return { job_id: 'edited' } as T;
      if (route.endsWith('/cancel') && o.cancel === 'conflict') throw new ConsoleError('Conflict', 'QueueFlow: job is running');
      if (route.endsWith('/cancel') && o.cancel === 'down') throw new ConsoleError('BrokerUnavailable', 'cannot reach QueueFlow');
      return { queue: 'mail', paused: false } as T;
    },
  };
  return { client, calls };
}

const dead = (o: Partial<PauseLease> = {}): PauseLease => ({
  broker: 'qf',
  queue: 'mail',
  owner: 'dead-console',
  startedAt: new Date(T0 - 60_000).toISOString(),
  deadlineMs: T0 - 30_000,
  pausedByConsole: true,
  detail: { letter: '7', create: { task_name: 't', payload: { a: 1 }, config: { queue: 'mail' } } },
  ...o,
});
const me = () => leaseSettings(async () => store, { owner: 'me' });

async function recover(l: PauseLease, qf: ReturnType<typeof fakeQf>) {
  await store.acquire(l);
  const audit: AuditEntry[] = [];
  const r = await recoverQfLease(qf.client, me(), l, async (r) => void audit.push(consoleEntry(r)));
  return { r, audit, left: await store.get('qf', 'mail') };
}

describe('QueueFlow edit-replay recovery', () => {
  it('finishes a replayed edit (edited job by its Idempotency-Key, copy cancelled), then resumes the queue it paused', async () => {
    const qf = fakeQf({ paused: true, replayJob: 'copy' });
    const { r, audit, left } = await recover(dead(), qf);
    expect(qf.calls).toEqual([
      'GET /api/v1/dlq/7',
      'GET /api/v1/jobs/copy',
      'POST /api/v1/jobs console-edit-dlq-7',
      'POST /api/v1/jobs/copy/cancel',
      'GET /api/v1/queues',
      'POST /api/v1/queues/mail/resume',
    ]);
    expect(r).toMatchObject({ resumed: true, keptPaused: false });
    expect(left).toBeNull();
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'edit-replay-recovery',
        broker: 'qf',
        queue: 'mail',
        who: 'console',
        outcome: 'done',
        ids: ['7', 'copy', 'edited'],
      }),
    ]);
    expect(audit[0]!.message).toMatch(/dead-console.*edited job is edited.*copy copy was cancelled.*queue mail resumed/);
  });

  it('never resumes a queue that was paused before the console paused it', async () => {
    const qf = fakeQf({ paused: true });
    const { r, audit, left } = await recover(dead({ pausedByConsole: false, detail: { letter: '7' } }), qf);
    expect(qf.calls).toEqual(['GET /api/v1/dlq/7']);
    expect(r).toMatchObject({ resumed: false });
    expect(left).toBeNull();
    expect(audit[0]!.message).toContain('was paused before the console paused it, so it stays paused');
  });

  it('does not resume a queue someone already resumed, nor touch a copy that is no longer waiting', async () => {
    const qf = fakeQf({ paused: false, copyStatus: 'cancelled' });
    const { r } = await recover(dead({ detail: { letter: '7', copy: 'copy', edited: 'edited' } }), qf);
    expect(qf.calls).toEqual(['GET /api/v1/jobs/copy', 'GET /api/v1/queues']);
    expect(r!.message).toContain('queue mail was no longer paused');
  });

  it("says a pending job's take for a move is what it recovered, and only resumes the queue", async () => {
    const qf = fakeQf({ paused: true, copyStatus: 'cancelled' });
    const { r, audit } = await recover(dead({ detail: { pending: 'copy' } }), qf);
    expect(qf.calls).toEqual(['GET /api/v1/jobs/copy', 'GET /api/v1/queues', 'POST /api/v1/queues/mail/resume']);
    expect(r).toMatchObject({ resumed: true, keptPaused: false });
    expect(audit[0]!.ids).toEqual(['copy']);
    expect(r!.message).toMatch(/^recovered the take of pending job copy for a move that console dead-console left/);
    expect(r!.message).toContain('pending job copy is cancelled; its move finishes or stops from the move journal');
    expect(r!.message).not.toContain('edit');
  });

  it('keeps the queue paused when the unedited copy cannot be cancelled, and says which job to cancel', async () => {
    const qf = fakeQf({ paused: true, cancel: 'conflict' });
    const { r, audit, left } = await recover(dead({ detail: { letter: '7', copy: 'copy', edited: 'edited' } }), qf);
    expect(qf.calls).toEqual(['GET /api/v1/jobs/copy', 'POST /api/v1/jobs/copy/cancel']);
    expect(r).toMatchObject({ resumed: false, keptPaused: true });
    expect(r!.message).toContain('queue mail stays paused; cancel job copy, then resume it');
    expect(left).toBeNull();
    expect(audit[0]!.outcome).toBe('partial');
  });

  it('leaves the lease (now its own, with a new deadline) when QueueFlow cannot be reached, to try again later', async () => {
    const qf = fakeQf({ paused: true, cancel: 'down' });
    const l = dead({ detail: { letter: '7', copy: 'copy', edited: 'edited' } });
    await store.acquire(l);
    await expect(recoverQfLease(qf.client, me(), l, async () => undefined)).rejects.toMatchObject({ code: 'BrokerUnavailable' });
    expect(await store.get('qf', 'mail')).toMatchObject({ owner: 'me', deadlineMs: T0 + 30_000, pausedByConsole: true });
  });

  it('does nothing when another console took the lease over first', async () => {
    const qf = fakeQf({ paused: true });
    await store.acquire(dead());
    expect(await store.takeOver('qf', 'mail', 'dead-console', 'other', T0, T0 + 30_000)).toBe(true);
    expect(await recoverQfLease(qf.client, me(), dead(), async () => undefined)).toBeNull();
    expect(qf.calls).toEqual([]);
  });
});
