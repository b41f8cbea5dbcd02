import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { ZIds } from '@/lib/brokers/schema';
import { setAuthConfigForTests } from '@/lib/auth/config';
import { accountsConfig, memoryAuditStore, sessionCookie } from '@/tests/support/auth';
import { setAuditStoreForTests } from '@/lib/audit/store';

const requireCapability = vi.fn();
vi.mock('@/lib/brokers/service', () => ({
  requireCapability: (...a: unknown[]) => requireCapability(...a),
  toConsoleError: (e: unknown) => (e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e))),
}));

const { gate, resetRefusalLimit, REFUSALS_PER_MINUTE, REFUSAL_IDS } = await import('./gate');
type Spec = import('./gate').GateSpec<
  typeof ZIds,
  { succeeded: Array<{ id: string; outcome: string; message: string }>; failed: Array<{ id: string; outcome: string; message: string }> }
>;

const sameSite = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
let logs: string[] = [];
let store: ReturnType<typeof memoryAuditStore>;

beforeEach(() => {
  resetRefusalLimit();
  logs = [];
  store = memoryAuditStore();
  setAuditStoreForTests(store);
  setAuthConfigForTests(null);
  requireCapability.mockReset().mockResolvedValue(undefined);
  vi.spyOn(console, 'info').mockImplementation((line: string) => void logs.push(line));
});
afterEach(() => {
  vi.restoreAllMocks();
  setAuthConfigForTests(null);
  setAuditStoreForTests(null);
});

const spec = (over: Partial<Spec> = {}): Spec => ({
  action: 'replay',
  brokerId: 'b1',
  capability: 'replay',
  schema: ZIds,
  input: { ids: ['a', 'b'] },
  headers: sameSite,
  run: vi.fn(async ({ ids }: { ids: string[] }) => ({
    succeeded: ids.slice(1).map((id) => ({ id, outcome: 'ok', message: '' })),
    failed: [{ id: ids[0]!, outcome: 'missing', message: 'gone' }],
  })),
  audit: (i: { ids: string[] }, r) => ({ ids: i.ids, succeeded: r.succeeded.length }),
  ...over,
});

describe('gate', () => {
  it('runs a valid same-site action, records who, broker, ids, reason and each id’s outcome, and logs one line', async () => {
    const s = spec({ input: { ids: ['a', 'b'], reason: 'ticket 7', queue: 'emails' } });
    await gate(s);
    expect(requireCapability).toHaveBeenCalledWith('b1', 'replay');
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0]!)).toMatchObject({
      event: 'console.action',
      action: 'replay',
      broker: 'b1',
      who: 'anonymous',
      outcome: 'done',
      ids: ['a', 'b'],
      succeeded: 1,
      reason: 'ticket 7',
    });
    expect(store.entries).toHaveLength(1);
    expect(store.entries[0]).toMatchObject({
      who: 'anonymous',
      role: 'operator',
      broker: 'b1',
      queue: 'emails',
      action: 'replay',
      ids: ['a', 'b'],
      reason: 'ticket 7',
      outcome: 'partial',
      results: [
        { id: 'a', outcome: 'missing', message: 'gone' },
        { id: 'b', outcome: 'ok', message: '' },
      ],
    });
  });

  it('refuses a cross-site browser request before validating or touching the broker', async () => {
    const s = spec({ headers: new Headers({ host: 'localhost:3000', origin: 'https://evil.example' }) });
    await expect(gate(s)).rejects.toMatchObject({ code: 'Forbidden', status: 403 });
    expect(s.run).not.toHaveBeenCalled();
    expect(requireCapability).not.toHaveBeenCalled();
    expect(JSON.parse(logs[0]!)).toMatchObject({ outcome: 'refused', code: 'Forbidden' });
  });

  it('answers invalid input with field messages and writes nothing', async () => {
    const s = spec({ input: { ids: [] } });
    await expect(gate(s)).rejects.toMatchObject({ code: 'InvalidInput', fields: { ids: 'no ids given' } });
    expect(s.run).not.toHaveBeenCalled();
    expect(store.entries).toEqual([]);
  });

  it('requires a reason for destructive and bulk actions, not for replay', async () => {
    for (const action of ['discard', 'revoke', 'purge', 'bulk-discard']) {
      const s = spec({ action, input: { ids: ['a'], reason: '   ' } });
      await expect(gate(s)).rejects.toMatchObject({ code: 'InvalidInput', fields: { reason: expect.any(String) } });
      expect(s.run).not.toHaveBeenCalled();
    }
    await expect(gate(spec())).resolves.toBeDefined();
  });

  it('does not run an action the broker refuses, and records the refusal', async () => {
    requireCapability.mockRejectedValue(new ConsoleError('ReadOnly', 'broker "b1" is configured read-only'));
    const s = spec();
    await expect(gate(s)).rejects.toMatchObject({ code: 'ReadOnly' });
    expect(s.run).not.toHaveBeenCalled();
    expect(store.entries[0]).toMatchObject({ outcome: 'refused', code: 'ReadOnly', who: 'anonymous' });
  });

  it('changes nothing when the audit trail cannot be written', async () => {
    setAuditStoreForTests({ ...memoryAuditStore(), begin: async () => Promise.reject(new Error('disk full')) });
    const s = spec();
    await expect(gate(s)).rejects.toMatchObject({ code: 'Internal', message: expect.stringMatching(/audit trail/) });
    expect(s.run).not.toHaveBeenCalled();
  });

  it('marks a started action failed when the broker throws', async () => {
    const s = spec({ run: vi.fn(async () => Promise.reject(new ConsoleError('BrokerTimeout', 'slow'))) });
    await expect(gate(s)).rejects.toMatchObject({ code: 'BrokerTimeout' });
    expect(store.entries[0]).toMatchObject({ outcome: 'failed', code: 'BrokerTimeout' });
  });

  it('counts each recorded call for /metrics by the outcome the audit trail records, metrics tokens included', async () => {
    const { actionRegistry } = await import('@/lib/metrics/actions');
    const value = async (outcome: string) =>
      (await actionRegistry().getSingleMetric('potatoq_console_actions_total')!.get()).values.find(
        (v) => v.labels.broker === 'counted' && v.labels.outcome === outcome,
      )?.value ?? 0;
    await gate(spec({ brokerId: 'counted' }));
    await gate(
      spec({ brokerId: 'counted', run: vi.fn(async () => ({ succeeded: [{ id: 'a', outcome: 'ok', message: '' }], failed: [] })) }),
    );
    await gate(spec({ brokerId: 'counted', run: vi.fn(async () => Promise.reject(new ConsoleError('BrokerTimeout', 'slow'))) })).catch(
      () => {},
    );
    setAuthConfigForTests(accountsConfig());
    const { METRICS_TOKEN } = await import('@/tests/support/auth');
    await gate(spec({ brokerId: 'counted', headers: new Headers({ host: 'x', authorization: `Bearer ${METRICS_TOKEN}` }) })).catch(
      () => {},
    );
    expect([await value('partial'), await value('done'), await value('failed'), await value('refused')]).toEqual([1, 1, 1, 1]);
  });

  it('keeps an operator with a read-only broker from writing there, not elsewhere', async () => {
    setAuthConfigForTests(accountsConfig());
    const h = new Headers({ host: 'x', cookie: sessionCookie('olga') });
    const s = spec({ brokerId: 'prod', headers: h });
    await expect(gate(s)).rejects.toMatchObject({ code: 'Forbidden', message: expect.stringMatching(/may only read/) });
    expect(s.run).not.toHaveBeenCalled();
    await expect(gate(spec({ headers: h }))).resolves.toBeDefined();
    expect(store.entries.map((e) => [e.who, e.outcome])).toEqual([
      ['olga', 'refused'],
      ['olga', 'partial'],
    ]);
  });

  it('requires a reason a reader can see: zero-width spaces and bidi marks are none', async () => {
    const s = spec({ action: 'discard', input: { ids: ['a'], reason: '\u200B\u200B\u202E\u2060' } });
    await expect(gate(s)).rejects.toMatchObject({ code: 'InvalidInput', fields: { reason: expect.any(String) } });
    expect(s.run).not.toHaveBeenCalled();
  });

  it('caps one request at 1,000 ids of at most 256 characters, with a clear 400', async () => {
    const many = spec({ input: { ids: Array.from({ length: 1001 }, (_, i) => `id${i}`) } });
    await expect(gate(many)).rejects.toMatchObject({
      code: 'InvalidInput',
      status: 400,
      message: expect.stringMatching(/at most 1,000 ids per call/),
    });
    const long = spec({ input: { ids: ['x'.repeat(257)] } });
    await expect(gate(long)).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/longer than 256/) });
    await expect(gate(spec({ input: { ids: Array.from({ length: 1000 }, (_, i) => `id${i}`.padEnd(256, 'x')) } }))).resolves.toBeDefined();
  });

  describe('a refused viewer', () => {
    const viewer = () => new Headers({ host: 'x', cookie: sessionCookie('vic') });
    beforeEach(() => setAuthConfigForTests(accountsConfig()));

    it('stores nothing for oversized input: it is validated before anything is recorded', async () => {
      const s = spec({ headers: viewer(), input: { ids: Array.from({ length: 5_000 }, () => 'y'.repeat(1_000)) } });
      await expect(gate(s)).rejects.toMatchObject({ code: 'InvalidInput' });
      expect(store.entries).toEqual([]);
    });

    it('is recorded compactly: the first ids and the count, from the parsed input only', async () => {
      const ids = Array.from({ length: 500 }, (_, i) => `task-${i}`);
      await expect(gate(spec({ headers: viewer(), input: { ids, queue: 'emails', junk: 'z'.repeat(100_000) } }))).rejects.toMatchObject({
        code: 'Forbidden',
      });
      expect(store.entries).toHaveLength(1);
      const e = store.entries[0]!;
      expect(e).toMatchObject({ who: 'vic', outcome: 'refused', code: 'Forbidden', idsTotal: 500, results: [] });
      expect(e.ids).toEqual(ids.slice(0, REFUSAL_IDS));
      expect(JSON.stringify(e).length).toBeLessThan(2000);
    });

    it('is stored at most REFUSALS_PER_MINUTE times a minute; the rest only in the log', async () => {
      await Promise.all(Array.from({ length: 100 }, () => gate(spec({ headers: viewer() })).catch(() => {})));
      expect(store.entries).toHaveLength(REFUSALS_PER_MINUTE);
      expect(logs.filter((l) => l.includes('console.audit-suppressed')).length).toBe(100 - REFUSALS_PER_MINUTE);
    });
  });
});
