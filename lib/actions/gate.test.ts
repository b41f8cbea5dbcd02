import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { ZIds } from '@/lib/brokers/schema';
import { setAuthConfigForTests } from '@/lib/auth/config';
import { accountsConfig, memoryAuditStore, sessionCookie } from '@/lib/auth/testing';
import { setAuditStoreForTests } from '@/lib/audit/store';

const requireCapability = vi.fn();
vi.mock('@/lib/brokers/service', () => ({
  requireCapability: (...a: unknown[]) => requireCapability(...a),
  toConsoleError: (e: unknown) => (e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e))),
}));

const { gate } = await import('./gate');
type Spec = import('./gate').GateSpec<typeof ZIds, { succeeded: Array<{ id: string; outcome: string; message: string }>; failed: Array<{ id: string; outcome: string; message: string }> }>;

const sameSite = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
let logs: string[] = [];
let store: ReturnType<typeof memoryAuditStore>;

beforeEach(() => {
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
    expect(JSON.parse(logs[0]!)).toMatchObject({ event: 'console.action', action: 'replay', broker: 'b1', who: 'anonymous', outcome: 'done', ids: ['a', 'b'], succeeded: 1, reason: 'ticket 7' });
    expect(store.entries).toHaveLength(1);
    expect(store.entries[0]).toMatchObject({
      who: 'anonymous', role: 'operator', broker: 'b1', queue: 'emails', action: 'replay', ids: ['a', 'b'], reason: 'ticket 7', outcome: 'partial',
      results: [{ id: 'a', outcome: 'missing', message: 'gone' }, { id: 'b', outcome: 'ok', message: '' }],
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

  it('keeps an operator with a read-only broker from writing there, not elsewhere', async () => {
    setAuthConfigForTests(accountsConfig());
    const h = new Headers({ host: 'x', cookie: sessionCookie('olga') });
    const s = spec({ brokerId: 'prod', headers: h });
    await expect(gate(s)).rejects.toMatchObject({ code: 'Forbidden', message: expect.stringMatching(/may only read/) });
    expect(s.run).not.toHaveBeenCalled();
    await expect(gate(spec({ headers: h }))).resolves.toBeDefined();
    expect(store.entries.map((e) => [e.who, e.outcome])).toEqual([['olga', 'refused'], ['olga', 'partial']]);
  });
});
