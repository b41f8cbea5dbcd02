import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import type { StateDecl } from '@/lib/brokers/schema';
import { setAuthConfigForTests } from '@/lib/auth/config';
import { memoryAuditStore } from '@/tests/support/auth';
import { setAuditStoreForTests } from '@/lib/audit/store';
import { FakeBackend, idsFrom } from '@/tests/bulk/fake-backend';

// The "move every waiting task" bulk action: the gate, the target check, the list it snapshots
// and the call per batch. The broker side is faked here; the real one runs in
// tests/move-queueflow-waiting.int.test.ts.
const requireCapability = vi.fn();
const listTasks = vi.fn();
const listDead = vi.fn();
const waitingPairing = vi.fn();
const moveWaiting = vi.fn();
const requirePairing = vi.fn();
const st = (key: string, owned: boolean): StateDecl => ({
  key,
  label: key,
  time: { field: 'createdAt', label: 't' },
  order: { by: 'claim', label: 'claim order' },
  owned,
});
vi.mock('@/lib/brokers/service', () => ({
  requireCapability: (...a: unknown[]) => requireCapability(...a),
  brokerModel: () => ({ states: [st('ready', false), st('running', true)] }),
  listTasks: (...a: unknown[]) => listTasks(...a),
  listDead: (...a: unknown[]) => listDead(...a),
  pacesReplay: () => false,
  toConsoleError: (e: unknown) => (e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e))),
}));
vi.mock('@/lib/brokers/move-waiting', () => ({ waitingPairing, moveWaiting }));
vi.mock('@/lib/brokers/move', () => ({ requirePairing, moveDead: vi.fn() }));

const { controlBulk, createBulk, getBulk } = await import('./operations');
const { clearJobs } = await import('./registry');
const { openSqliteBulkStore, setBulkStoreForTests } = await import('./store-open');
const { serviceBackend } = await import('./backend');
const { ZBulkCreate } = await import('./schema');

const h = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
beforeEach(async () => {
  clearJobs();
  setBulkStoreForTests(await openSqliteBulkStore(':memory:'));
  setAuditStoreForTests(memoryAuditStore());
  setAuthConfigForTests(null);
  for (const f of [requireCapability, listTasks, listDead, waitingPairing, moveWaiting, requirePairing]) f.mockReset();
  requireCapability.mockResolvedValue(undefined);
  waitingPairing.mockResolvedValue({ on: true, does: 'takes each task' });
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  setAuditStoreForTests(null);
});

describe('bulk move of waiting tasks', () => {
  it('needs a target, and takes a state filter (dead-letter moves take none)', () => {
    expect(ZBulkCreate.safeParse({ action: 'move-waiting', filter: { queue: 'q' } }).error?.issues[0]?.path).toEqual(['filter', 'to']);
    expect(ZBulkCreate.safeParse({ action: 'move-waiting', filter: { state: 'ready', to: 'qf' } }).success).toBe(true);
    expect(ZBulkCreate.safeParse({ action: 'move', filter: { state: 'ready', to: 'qf' } }).success).toBe(false);
  });

  it('freezes a range of enqueued times as instants, and names until when it is empty', () => {
    const before = Date.now();
    const r = ZBulkCreate.parse({ action: 'revoke', filter: { state: 'ready', since: '1h', until: '2099-01-01T00:00:00+00:00' } });
    expect(Date.parse(r.filter.since!)).toBeGreaterThanOrEqual(before - 3_600_000);
    expect(r.filter.since).toMatch(/Z$/);
    expect(r.filter.until).toBe('2099-01-01T00:00:00.000Z');
    const bad = ZBulkCreate.safeParse({ action: 'move-waiting', filter: { state: 'ready', to: 'qf', since: '1h', until: '2h' } });
    expect(bad.error?.issues[0]?.path).toEqual(['filter', 'until']);
  });

  it('snapshots the waiting list after checking the revoke capability and the waiting pairing', async () => {
    const b = new FakeBackend(idsFrom('w', 7));
    const v = await createBulk('src', { action: 'move-waiting', filter: { queue: 'q1', to: 'qf' } }, h, () => b);
    expect(v).toMatchObject({ state: 'queued', action: 'move-waiting', progress: { total: 7 }, filter: { queue: 'q1', to: 'qf' } });
    expect(requireCapability).toHaveBeenCalledWith('src', 'revoke');
    expect(waitingPairing).toHaveBeenCalledWith('src', 'qf');
    expect(requirePairing).not.toHaveBeenCalled();
    expect(b.calls).toEqual([]);
  });

  it('refuses a target that cannot take waiting tasks, naming why, before reading anything', async () => {
    waitingPairing.mockResolvedValue({ on: false, why: 'Q has no idempotency key' });
    const backendFor = vi.fn(() => new FakeBackend(['a']));
    await expect(createBulk('src', { action: 'move-waiting', filter: { to: 'qf' } }, h, backendFor)).rejects.toMatchObject({
      code: 'Unsupported',
      message: 'Q has no idempotency key',
      fields: { 'filter.to': 'Q has no idempotency key' },
    });
    // A state a worker owns: refused too, naming the field.
    waitingPairing.mockResolvedValue({ on: true, does: '' });
    await expect(
      createBulk('src', { action: 'move-waiting', filter: { state: 'running', to: 'qf' } }, h, backendFor),
    ).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { 'filter.state': expect.stringMatching(/owned by a worker/) },
    });
    expect(backendFor).not.toHaveBeenCalled();
  });

  it('runs in batches, checking the pairing again at the start, with per-id outcomes', async () => {
    const b = new FakeBackend(idsFrom('w', 5));
    b.running.add('w-000003');
    const v = await createBulk('src', { action: 'move-waiting', filter: { to: 'qf' } }, h, () => b);
    waitingPairing.mockResolvedValueOnce({ on: false, why: 'qf is read-only now' });
    await expect(controlBulk('src', { jobId: v.id, op: 'start', confirmCount: 5, reason: 'r' }, h)).rejects.toMatchObject({
      code: 'Unsupported',
    });
    expect(b.calls).toEqual([]);
    await controlBulk('src', { jobId: v.id, op: 'start', confirmCount: 5, reason: 'r' }, h);
    await vi.waitFor(async () => expect((await getBulk('src', v.id, true, h)).state).toBe('done'));
    const done = await getBulk('src', v.id, true, h);
    expect(done.progress).toMatchObject({ total: 5, succeeded: 4, skipped: 1, failed: 0 });
    expect(done.skippedOutcomes).toEqual([expect.objectContaining({ id: 'w-000003', outcome: 'running' })]);
  });

  it('the real backend lists the tasks with the state filter and moves each batch through moveWaiting', async () => {
    listTasks.mockResolvedValue({ items: [{ id: 't1' }, { id: 't2' }], nextCursor: null });
    moveWaiting.mockResolvedValue({ action: 'move', brokerId: 'src', requested: 2, succeeded: [], failed: [] });
    const b = serviceBackend('src', 'move-waiting', { queue: 'q1', state: 'ready', to: 'qf' });
    expect((await b.listPage(undefined, 50)).ids).toEqual(['t1', 't2']);
    expect(listTasks).toHaveBeenCalledWith('src', expect.objectContaining({ queue: 'q1', state: 'ready', limit: 50 }));
    expect(listDead).not.toHaveBeenCalled();
    await b.act(['t1', 't2'], { id: 'job-1', auditId: 'a1', by: 'ann' });
    expect(moveWaiting).toHaveBeenCalledWith('src', 'qf', ['t1', 't2'], { by: 'bulk move job job-1 (started by ann)', auditId: 'a1' });
  });
});
