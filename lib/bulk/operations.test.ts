import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import type { StateDecl, StateRole } from '@/lib/brokers/schema';
import { setAuthConfigForTests } from '@/lib/auth/config';
import { accountsConfig, memoryAuditStore } from '@/tests/support/auth';
import { setAuditStoreForTests } from '@/lib/audit/store';
import { FakeBackend, idsFrom, latch } from '@/tests/bulk/fake-backend';

const requireCapability = vi.fn();
const st = (key: string, owned: boolean, role?: StateRole): StateDecl => ({
  key,
  label: key,
  time: { field: 'createdAt', label: 't' },
  order: { by: 'claim', label: 'claim order' },
  owned,
  role,
});
/** The broker's declared states: potatoq's, unless a test declares a system of its own. */
let declared: StateDecl[] = [];
// A job taken over from a stopped console acts through the service: this fake is its broker.
let serviceBroker = new FakeBackend([]);
vi.mock('@/lib/brokers/service', () => ({
  requireCapability: (...a: unknown[]) => requireCapability(...a),
  replayDead: (_b: string, ids: string[]) => serviceBroker.act(ids),
  brokerModel: () => ({ states: declared }),
  pacesReplay: () => false, // a broker replayed per batch (RabbitMQ's one-pass path: one-pass.test.ts)
  toConsoleError: (e: unknown) => (e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e))),
}));

const { controlBulk, createBulk, getBulk } = await import('./operations');
const { clearJobs } = await import('./registry');
const { openSqliteBulkStore, setBulkStoreForTests } = await import('./store-open');
const { INTERRUPTED_IN_FLIGHT, rowOf } = await import('./persist');
const { BulkJob } = await import('./runner');
let bulkStore: Awaited<ReturnType<typeof openSqliteBulkStore>>;

const h = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
let logs: Array<Record<string, unknown>> = [];
let store: ReturnType<typeof memoryAuditStore>;

beforeEach(async () => {
  declared = [st('ready', false, 'waiting'), st('scheduled', false, 'scheduled'), st('running', true, 'running')];
  clearJobs();
  bulkStore = await openSqliteBulkStore(':memory:');
  setBulkStoreForTests(bulkStore);
  logs = [];
  store = memoryAuditStore();
  setAuditStoreForTests(store);
  setAuthConfigForTests(null);
  requireCapability.mockReset().mockResolvedValue(undefined);
  vi.spyOn(console, 'info').mockImplementation((line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>));
});
afterEach(() => {
  vi.restoreAllMocks();
  setAuthConfigForTests(null);
  setAuditStoreForTests(null);
});
const why = 'ticket OPS-1';

describe('bulk operations behind the gate', () => {
  it('creates a queued snapshot with the exact count, checked against the action capability', async () => {
    const b = new FakeBackend(idsFrom('d', 1200));
    const v = await createBulk('b1', { action: 'discard', filter: { queue: 'q1', task: 'x' }, expectedCount: 1200 }, h, () => b);
    expect(v).toMatchObject({
      state: 'queued',
      action: 'discard',
      progress: { total: 1200, processed: 0 },
      filter: { queue: 'q1', task: 'x' },
      capped: false,
    });
    expect(requireCapability).toHaveBeenCalledWith('b1', 'discard');
    expect(b.calls).toEqual([]);
    // Taking a snapshot writes nothing: no audit entry yet.
    expect(store.entries).toEqual([]);
  });

  it('refuses a start whose confirmed count is not the snapshot', async () => {
    const b = new FakeBackend(idsFrom('d', 10));
    const v = await createBulk('b1', { action: 'replay', filter: {} }, h, () => b);
    await expect(controlBulk('b1', { jobId: v.id, op: 'start', confirmCount: 9, reason: why }, h)).rejects.toMatchObject({
      code: 'Conflict',
    });
    expect(b.calls).toEqual([]);
    const started = await controlBulk('b1', { jobId: v.id, op: 'start', confirmCount: 10, reason: why }, h);
    expect(started.state).toBe('running');
  });

  it('gives back the lease of a queued job whose start was refused, so another console can start it', async () => {
    const b = new FakeBackend(idsFrom('d', 10));
    const v = await createBulk('b1', { action: 'replay', filter: {} }, h, () => b);
    expect((await bulkStore.get(v.id))?.owner).toBeNull();
    await expect(controlBulk('b1', { jobId: v.id, op: 'start', confirmCount: 9, reason: why }, h)).rejects.toMatchObject({
      code: 'Conflict',
    });
    expect((await bulkStore.get(v.id))?.owner).toBeNull();
    await controlBulk('b1', { jobId: v.id, op: 'start', confirmCount: 10, reason: why }, h);
    expect((await bulkStore.get(v.id))?.owner).toBe(bulkStore.me);
  });

  it('never runs two jobs on the same broker, queue and action at once', async () => {
    const b = new FakeBackend(idsFrom('d', 10));
    b.beforeAct = () => new Promise((r) => setTimeout(r, 200));
    const one = await createBulk('b1', { action: 'replay', filter: { queue: 'q1' } }, h, () => b);
    const two = await createBulk('b1', { action: 'replay', filter: { queue: 'q1', task: 't' } }, h, () => b);
    const other = await createBulk('b1', { action: 'replay', filter: { queue: 'q2' } }, h, () => new FakeBackend([]));
    await controlBulk('b1', { jobId: one.id, op: 'start', reason: why }, h);
    await expect(controlBulk('b1', { jobId: two.id, op: 'start', reason: why }, h)).rejects.toMatchObject({
      code: 'Conflict',
      message: expect.stringContaining(one.id),
    });
    await expect(createBulk('b1', { action: 'replay', filter: {} }, h, () => b)).rejects.toMatchObject({ code: 'Conflict' });
    await expect(controlBulk('b1', { jobId: other.id, op: 'start', reason: why }, h)).resolves.toMatchObject({
      state: 'done',
      progress: { total: 0 },
    });
  });

  it('pauses and cancels without asking the broker for the capability again', async () => {
    const b = new FakeBackend(idsFrom('d', 10));
    b.beforeAct = () => new Promise((r) => setTimeout(r, 50));
    const v = await createBulk('b1', { action: 'revoke', filter: { state: 'ready' } }, h, () => b);
    await controlBulk('b1', { jobId: v.id, op: 'start', reason: why }, h);
    requireCapability.mockClear();
    await controlBulk('b1', { jobId: v.id, op: 'pause' }, h);
    const c = await controlBulk('b1', { jobId: v.id, op: 'cancel' }, h);
    expect(c.state).toBe('cancelled');
    expect(requireCapability).not.toHaveBeenCalled();
    expect(logs.filter((l) => l.event === 'console.action').map((l) => l.bulk)).toEqual(['start', 'pause', 'cancel']);
    expect(store.entries.map((e) => e.action)).toEqual(['bulk-revoke', 'bulk-pause', 'bulk-cancel']);
  });

  it('a cancel while a batch is with the broker keeps the lease until the batch is recorded, then gives it back', async () => {
    const b = new FakeBackend(idsFrom('d', 10));
    const held = latch();
    b.beforeAct = () => held.wait;
    const v = await createBulk('b1', { action: 'replay', filter: {}, rate: 1000 }, h, () => b);
    await controlBulk('b1', { jobId: v.id, op: 'start', reason: why }, h);
    await vi.waitFor(() => expect(b.calls).toHaveLength(1));
    await controlBulk('b1', { jobId: v.id, op: 'cancel' }, h);
    expect((await bulkStore.get(v.id))?.owner).toBe(bulkStore.me);
    held.open();
    await vi.waitFor(async () => expect((await bulkStore.get(v.id))?.owner).toBeNull());
    expect(await bulkStore.get(v.id)).toMatchObject({
      state: 'cancelled',
      done: b.calls[0]!.length,
      inFlight: 0,
      succeeded: b.calls[0]!.length,
    });
    expect(b.calls).toHaveLength(1);
  });

  it('acts at once on a job this console runs: no request left for another console, none waited for', async () => {
    const b = new FakeBackend(idsFrom('d', 40));
    b.beforeAct = () => new Promise((r) => setTimeout(r, 20));
    const v = await createBulk('b1', { action: 'replay', filter: {}, rate: 5 }, h, () => b);
    const requests = vi.spyOn(bulkStore, 'request');
    const states: string[] = [];
    for (const op of ['start', 'pause', 'resume', 'cancel'] as const)
      states.push((await controlBulk('b1', { jobId: v.id, op, reason: why }, h)).state);
    expect(states).toEqual(['running', 'paused', 'running', 'cancelled']);
    expect(requests).not.toHaveBeenCalled();
  });

  it('refuses revoking running tasks and unknown actions before reading the broker', async () => {
    const b = new FakeBackend(idsFrom('d', 3));
    await expect(createBulk('b1', { action: 'revoke', filter: { state: 'running' } }, h, () => b)).rejects.toMatchObject({
      code: 'InvalidInput',
    });
    await expect(createBulk('b1', { action: 'purge', filter: {} }, h, () => b)).rejects.toMatchObject({ code: 'InvalidInput' });
    await expect(createBulk('b1', { action: 'replay', filter: {}, rate: 0 }, h, () => b)).rejects.toMatchObject({ code: 'InvalidInput' });
  });

  it("refuses revoking the tasks of whichever state the broker's workers own, by its declaration", async () => {
    // A system of its own: waiting work is `queued`, a worker's is `leased`; its `running` is no worker's.
    declared = [st('leased', true, 'running'), st('queued', false, 'waiting'), st('running', false)];
    const backendFor = vi.fn(() => new FakeBackend(idsFrom('d', 3)));
    await expect(createBulk('b1', { action: 'revoke', filter: { state: 'leased' } }, h, backendFor)).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { 'filter.state': expect.stringMatching(/owned by a worker.*queued or running/) },
    });
    expect(backendFor).not.toHaveBeenCalled();
    await expect(createBulk('b1', { action: 'revoke', filter: { state: 'running', queue: 'q2' } }, h, backendFor)).resolves.toMatchObject({
      action: 'revoke',
    });
    // Without a state, the state that plays `waiting` (queued): no worker owns it.
    await expect(createBulk('b1', { action: 'revoke', filter: { queue: 'q3' } }, h, backendFor)).resolves.toMatchObject({
      action: 'revoke',
    });
    declared = [st('leased', false), st('queued', true, 'waiting')];
    await expect(createBulk('b1', { action: 'revoke', filter: { queue: 'q4' } }, h, backendFor)).rejects.toMatchObject({
      code: 'InvalidInput',
    });
  });

  it('requires a reason to start, and completes the audit entry with per-id outcomes when the job stops', async () => {
    const b = new FakeBackend(idsFrom('d', 5));
    b.running.add('d-000004');
    const v = await createBulk('b1', { action: 'revoke', filter: { queue: 'q9', state: 'ready' } }, h, () => b);
    await expect(controlBulk('b1', { jobId: v.id, op: 'start' }, h)).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { reason: expect.any(String) },
    });
    expect(b.calls).toEqual([]);
    await controlBulk('b1', { jobId: v.id, op: 'start', reason: why }, h);
    await vi.waitFor(() => expect(store.entries[0]?.details).toMatchObject({ state: 'done', succeeded: 4, skipped: 1 }));
    const entry = store.entries[0]!;
    expect(entry).toMatchObject({
      action: 'bulk-revoke',
      reason: why,
      queue: 'q9',
      count: 5,
      filter: { queue: 'q9', state: 'ready' },
      outcome: 'partial',
    });
    expect(entry.results).toContainEqual({ id: 'd-000004', outcome: 'running', message: 'is running' });
    // Filed under every id of the snapshot: each task's history shows the bulk job.
    expect(entry.ids).toEqual(idsFrom('d', 5));
    expect(store.entries.filter((e) => e.ids.includes('d-000002')).map((e) => e.action)).toEqual(['bulk-revoke']);
  });

  it('hides a job from other brokers', async () => {
    const v = await createBulk('b1', { action: 'replay', filter: {} }, h, () => new FakeBackend(['a']));
    await expect(getBulk('b2', v.id, false, h)).rejects.toThrow(/no bulk job/);
    expect((await getBulk('b1', v.id, false, h)).progress.total).toBe(1);
  });

  it('answers an anonymous caller 401 whether or not the job id exists (never 404)', async () => {
    setAuthConfigForTests(accountsConfig());
    const anon = new Headers({ host: 'localhost:3000' });
    for (const id of ['no-such-job', 'also-missing']) {
      await expect(controlBulk('b1', { jobId: id, op: 'start', reason: why }, anon)).rejects.toMatchObject({
        code: 'Unauthorized',
        status: 401,
      });
      await expect(getBulk('b1', id, false, anon)).rejects.toMatchObject({ code: 'Unauthorized', status: 401 });
    }
  });

  it('is refused for a cross-site request', async () => {
    const b = new FakeBackend(['a']);
    const evil = new Headers({ host: 'localhost:3000', origin: 'https://evil.example' });
    await expect(createBulk('b1', { action: 'replay', filter: {} }, evil, () => b)).rejects.toMatchObject({ code: 'Forbidden' });
  });

  it('reports a job whose console stopped where it stopped, and resumes it elsewhere without sending the in-flight batch again', async () => {
    const ids = idsFrom('d', 10);
    serviceBroker = new FakeBackend(ids.slice(6));
    // A row as the stopped console left it: 4 done, a batch of 2 with the broker, no heartbeat since.
    const job = new BulkJob({
      brokerId: 'b1',
      action: 'replay',
      filter: { queue: 'q1' },
      snapshot: { ids, capped: false, searchedNewest: null, at: new Date() },
      backend: serviceBroker,
      batchSize: 2,
    });
    const row = {
      ...rowOf(job),
      state: 'running' as const,
      done: 4,
      inFlight: 2,
      succeeded: 4,
      batches: 2,
      owner: 'gone-console',
      heartbeatMs: Date.now() - 60_000,
    };
    await bulkStore.create(row, ids);
    const seen = await getBulk('b1', job.id, true, h);
    expect(seen).toMatchObject({ state: 'paused', interrupted: { processed: 4, inFlight: 2 }, progress: { processed: 6, failed: 2 } });
    expect(seen.failedOutcomes).toEqual([
      { id: 'd-000004', outcome: 'error', message: INTERRUPTED_IN_FLIGHT },
      { id: 'd-000005', outcome: 'error', message: INTERRUPTED_IN_FLIGHT },
    ]);
    await controlBulk('b1', { jobId: job.id, op: 'resume' }, h);
    await vi.waitFor(async () => expect((await getBulk('b1', job.id, false, h)).state).toBe('done'));
    expect(serviceBroker.calls.flat()).toEqual(ids.slice(6));
    expect((await getBulk('b1', job.id, false, h)).progress).toMatchObject({ total: 10, processed: 10, succeeded: 8, failed: 2 });
  });

  it("applies another console's pause and cancel between batches, and every console reads the job from the store", async () => {
    const b = new FakeBackend(idsFrom('d', 40));
    b.beforeAct = () => new Promise((r) => setTimeout(r, 30));
    const v = await createBulk('b1', { action: 'replay', filter: {}, rate: 20 }, h, () => b);
    await controlBulk('b1', { jobId: v.id, op: 'start', reason: why }, h);
    // What another instance does: leave a request in the shared store.
    await bulkStore.request(v.id, { op: 'pause' });
    await vi.waitFor(async () => expect((await bulkStore.get(v.id))?.state).toBe('paused'), { timeout: 3000 });
    const calls = b.calls.length;
    await new Promise((r) => setTimeout(r, 700));
    expect(b.calls.length).toBe(calls);
    await bulkStore.request(v.id, { op: 'cancel' });
    await vi.waitFor(async () => expect((await getBulk('b1', v.id, false, h)).state).toBe('cancelled'), { timeout: 3000 });
    expect(b.rows.length).toBeGreaterThan(0);
  });
});
