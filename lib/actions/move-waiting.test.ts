import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { setAuthConfigForTests } from '@/lib/auth/config';
import { VIEWER_TOKEN, accountsConfig, memoryAuditStore, sessionCookie } from '@/tests/support/auth';
import { setAuditStoreForTests } from '@/lib/audit/store';
import { openSqliteCampaignStore, setCampaignStoreForTests } from '@/lib/campaigns/open';

// The waiting move's gate: operator and write access on both brokers, a reason, an audit entry
// on each naming the other (and saying it moved waiting tasks).

const moveWaiting = vi.fn(async (from: string, to: string, ids: string[], _by: { by: string; auditId?: string | null }) => ({
  action: 'move',
  brokerId: from,
  to,
  requested: ids.length,
  succeeded: ids.map((id) => ({ id, outcome: 'ok', message: 'created' })),
  failed: [],
}));
vi.mock('@/lib/brokers/move-waiting', () => ({ moveWaiting }));
vi.mock('@/lib/brokers/move', () => ({ moveDead: vi.fn(), moveTargets: vi.fn(async () => []) }));
vi.mock('@/lib/brokers/service', () => ({
  requireCapability: vi.fn(async () => undefined),
  brokerList: () => ['celery', 'qf', 'prod'].map((id) => ({ id, name: id, kind: 'redis' })),
  toConsoleError: (e: unknown) => (e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e))),
}));
vi.mock('@/lib/brokers/service-fate', () => ({ fateCapability: async () => ({ on: true }), taskFates: vi.fn() }));
const { moveWaitingOp } = await import('./move-waiting');

const HOST = { host: 'console.example:3000' };
const olga = new Headers({ ...HOST, cookie: sessionCookie('olga'), origin: 'http://console.example:3000' });
let store: ReturnType<typeof memoryAuditStore>;
beforeEach(() => {
  store = memoryAuditStore();
  setAuditStoreForTests(store);
  setAuthConfigForTests(accountsConfig());
  moveWaiting.mockClear();
  vi.spyOn(console, 'info').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  setCampaignStoreForTests(null);
  setAuthConfigForTests(null);
  setAuditStoreForTests(null);
});

describe('moving waiting tasks between brokers', () => {
  it('records an entry on both brokers, each naming the other', async () => {
    await moveWaitingOp('celery', { to: 'qf', ids: ['a'], reason: 'OPS-130' }, olga);
    const byBroker = Object.fromEntries(store.entries.map((e) => [e.broker, e]));
    expect(moveWaiting).toHaveBeenCalledWith('celery', 'qf', ['a'], { by: 'olga', auditId: byBroker.celery?.id });
    expect(byBroker.celery).toMatchObject({ action: 'move', reason: 'OPS-130', ids: ['a'], outcome: 'done', details: { waiting: true } });
    expect(byBroker.qf).toMatchObject({ action: 'move-in', ids: ['a'], outcome: 'done', details: { waiting: true, from: 'celery' } });
  });

  it.each([
    ['a viewer', new Headers({ ...HOST, authorization: `Bearer ${VIEWER_TOKEN}` }), { to: 'qf', ids: ['a'], reason: 'r' }, 'Forbidden'],
    ['nobody', new Headers(HOST), { to: 'qf', ids: ['a'], reason: 'r' }, 'Unauthorized'],
    ['an operator without a reason', olga, { to: 'qf', ids: ['a'] }, 'InvalidInput'],
    ['an operator who may only read the target', olga, { to: 'prod', ids: ['a'], reason: 'r' }, 'Forbidden'],
    ['an unknown target', olga, { to: 'nope', ids: ['a'], reason: 'r' }, 'NotFound'],
  ])('refuses %s, moving nothing', async (_who, headers, input, code) => {
    await expect(moveWaitingOp('celery', input, headers)).rejects.toMatchObject({ code });
    expect(moveWaiting).not.toHaveBeenCalled();
  });

  it('follows the moved tasks on the target as a campaign; a move finished by its second attempt joins once', async () => {
    const campaigns = await openSqliteCampaignStore(':memory:');
    setCampaignStoreForTests(campaigns);
    const answer = (succeeded: object[], failed: object[] = []) =>
      moveWaiting.mockImplementationOnce(
        async (from, to, ids) => ({ action: 'move', brokerId: from, to, requested: ids.length, succeeded, failed }) as never,
      );
    // The first attempt took it and lost the target's answer: held, not a success, not followed.
    answer([], [{ id: 'a', outcome: 'error', message: 'held: move it again' }]);
    expect(await moveWaitingOp('celery', { to: 'qf', ids: ['a'], reason: 'r' }, olga)).not.toHaveProperty('campaign');
    answer([{ id: 'a', outcome: 'already', message: 'already on qf', taskId: 'job-a' }]);
    const r = (await moveWaitingOp('celery', { to: 'qf', ids: ['a'], reason: 'r' }, olga)) as { campaign: string };
    const c = (await campaigns.get(r.campaign))!;
    expect(c).toMatchObject({ broker: 'qf', action: 'move-waiting', who: 'olga', scope: { from: 'celery', firstRun: true, count: 1 } });
    expect((await campaigns.items(r.campaign, { fate: 'all', limit: 5 })).items.map((i) => [i.id, i.from])).toEqual([['job-a', 'a']]);
    // Moved again: no longer waiting there, nothing new to follow.
    answer([], [{ id: 'a', outcome: 'missing', message: 'not waiting' }]);
    expect(await moveWaitingOp('celery', { to: 'qf', ids: ['a'], reason: 'r' }, olga)).not.toHaveProperty('campaign');
    expect((await campaigns.list({ limit: 10 })).items).toHaveLength(1);
  });
});
