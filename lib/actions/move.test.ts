import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { setAuthConfigForTests } from '@/lib/auth/config';
import { OPERATOR_TOKEN, VIEWER_TOKEN, accountsConfig, memoryAuditStore, sessionCookie } from '@/tests/support/auth';
import { setAuditStoreForTests } from '@/lib/audit/store';

// The move's gate: the caller needs the operator role and write access on both brokers, a
// reason, and both audit trails get an entry naming the other broker.

const moveDead = vi.fn(async (from: string, to: string, ids: string[], _by: { by: string; auditId?: string | null; force?: boolean }) => ({
  action: 'move',
  brokerId: from,
  to,
  requested: ids.length,
  succeeded: ids.map((id) => ({ id, outcome: 'ok', message: 'moved' })),
  failed: [],
}));
vi.mock('@/lib/brokers/move', () => ({ moveDead, moveTargets: vi.fn(async () => []) }));
const requireCapability = vi.fn(async (_broker: string, _cap: string) => undefined);
vi.mock('@/lib/brokers/service', () => ({
  requireCapability,
  brokerList: () => ['celery', 'pq', 'prod', 'qf'].map((id) => ({ id, name: id, kind: 'redis' })),
  // QueueFlow cannot delete a letter: a moved one leaves by its replay.
  brokerModel: (id: string) => (id === 'qf' ? { calls: { leaves: 'replay' } } : { calls: {} }),
  toConsoleError: (e: unknown) => (e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e))),
}));
const { moveDeadOp } = await import('./move');

const HOST = { host: 'console.example:3000' };
const olga = new Headers({ ...HOST, cookie: sessionCookie('olga'), origin: 'http://console.example:3000' });
let store: ReturnType<typeof memoryAuditStore>;
beforeEach(() => {
  store = memoryAuditStore();
  setAuditStoreForTests(store);
  setAuthConfigForTests(accountsConfig());
  moveDead.mockClear();
  requireCapability.mockClear();
  vi.spyOn(console, 'info').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  setAuthConfigForTests(null);
  setAuditStoreForTests(null);
});

describe('moving dead letters between brokers', () => {
  it('records an entry on both brokers, each naming the other, with the per-id outcomes', async () => {
    await moveDeadOp('celery', { to: 'pq', ids: ['a', 'b'], reason: 'OPS-9' }, olga);
    const byBroker = Object.fromEntries(store.entries.map((e) => [e.broker, e]));
    // The journal names who moves and the source's audit entry.
    expect(moveDead).toHaveBeenCalledWith('celery', 'pq', ['a', 'b'], { by: 'olga', auditId: byBroker.celery?.id, force: false });
    expect(byBroker.celery).toMatchObject({ action: 'move', who: 'olga', reason: 'OPS-9', ids: ['a', 'b'], outcome: 'done' });
    expect(byBroker.pq).toMatchObject({ action: 'move-in', who: 'olga', reason: 'OPS-9', ids: ['a', 'b'], outcome: 'done' });
    expect(JSON.stringify(byBroker.celery)).toContain('"to":"pq"');
    expect(JSON.stringify(byBroker.pq)).toContain('"from":"celery"');
  });

  it('needs the capability that removes a letter as it leaves the source: discard, or replay where it leaves by its replay', async () => {
    await moveDeadOp('celery', { to: 'pq', ids: ['a'], reason: 'OPS-9' }, olga);
    await moveDeadOp('qf', { to: 'celery', ids: ['1'], reason: 'OPS-9: back to Celery' }, olga);
    expect(requireCapability.mock.calls).toEqual([
      ['celery', 'discard'],
      ['pq', 'enqueue'],
      ['qf', 'replay'],
      ['celery', 'enqueue'],
    ]);
  });

  it('passes "move anyway" through and records it in both entries', async () => {
    await moveDeadOp('celery', { to: 'pq', ids: ['a'], reason: 'OPS-9: checked pq, it did not run', force: true }, olga);
    expect(moveDead).toHaveBeenCalledWith('celery', 'pq', ['a'], expect.objectContaining({ force: true }));
    for (const e of store.entries) expect(e.details).toMatchObject({ force: true });
  });

  it('refuses a force that is not a boolean, naming the field', async () => {
    await expect(moveDeadOp('celery', { to: 'pq', ids: ['a'], reason: 'r', force: 'yes' }, olga)).rejects.toMatchObject({
      code: 'InvalidInput',
      message: expect.stringContaining('force'),
    });
    expect(moveDead).not.toHaveBeenCalled();
  });

  it('refuses an operator who may only read the target, before anything moves', async () => {
    await expect(moveDeadOp('celery', { to: 'prod', ids: ['a'], reason: 'r' }, olga)).rejects.toMatchObject({
      code: 'Forbidden',
      message: expect.stringContaining('may only read broker "prod"'),
    });
    expect(moveDead).not.toHaveBeenCalled();
  });

  it('refuses an operator who may only read the source', async () => {
    await expect(moveDeadOp('prod', { to: 'pq', ids: ['a'], reason: 'r' }, olga)).rejects.toMatchObject({ code: 'Forbidden' });
    expect(moveDead).not.toHaveBeenCalled();
  });

  it.each([
    ['a viewer', new Headers({ ...HOST, authorization: `Bearer ${VIEWER_TOKEN}` }), { to: 'pq', ids: ['a'], reason: 'r' }, 'Forbidden'],
    ['nobody', new Headers(HOST), { to: 'pq', ids: ['a'], reason: 'r' }, 'Unauthorized'],
    [
      'an operator without a reason',
      new Headers({ ...HOST, authorization: `Bearer ${OPERATOR_TOKEN}` }),
      { to: 'pq', ids: ['a'] },
      'InvalidInput',
    ],
    [
      'an operator naming no target',
      new Headers({ ...HOST, authorization: `Bearer ${OPERATOR_TOKEN}` }),
      { ids: ['a'], reason: 'r' },
      'InvalidInput',
    ],
    [
      'an operator naming an unknown target',
      new Headers({ ...HOST, authorization: `Bearer ${OPERATOR_TOKEN}` }),
      { to: 'nope', ids: ['a'], reason: 'r' },
      'NotFound',
    ],
  ])('refuses %s', async (_who, headers, input, code) => {
    await expect(moveDeadOp('celery', input, headers)).rejects.toMatchObject({ code });
    expect(moveDead).not.toHaveBeenCalled();
  });
});
