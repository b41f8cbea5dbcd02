import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { ZIds } from '@/lib/brokers/schema';

const requireCapability = vi.fn();
vi.mock('@/lib/brokers/service', () => ({
  requireCapability: (...a: unknown[]) => requireCapability(...a),
  toConsoleError: (e: unknown) => (e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e))),
}));

const { gate } = await import('./gate');
type Spec = import('./gate').GateSpec<typeof ZIds, { succeeded: string[]; failed: string[] }>;

const sameSite = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
let logs: string[] = [];

beforeEach(() => {
  logs = [];
  requireCapability.mockReset().mockResolvedValue(undefined);
  vi.spyOn(console, 'info').mockImplementation((line: string) => void logs.push(line));
});
afterEach(() => vi.restoreAllMocks());

const spec = (over: Partial<Spec> = {}): Spec => ({
  action: 'replay',
  brokerId: 'b1',
  capability: 'replay',
  schema: ZIds,
  input: { ids: ['a', 'b'] },
  headers: sameSite,
  run: vi.fn(async ({ ids }: { ids: string[] }) => ({ succeeded: ids, failed: [] as string[] })),
  audit: (i: { ids: string[] }, r: { succeeded: string[] }) => ({ ids: i.ids, succeeded: r.succeeded.length }),
  ...over,
});

describe('gate', () => {
  it('runs a valid same-site action and writes one audit line naming who, broker and ids', async () => {
    const s = spec();
    await expect(gate(s)).resolves.toEqual({ succeeded: ['a', 'b'], failed: [] });
    expect(requireCapability).toHaveBeenCalledWith('b1', 'replay');
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0]!)).toMatchObject({ event: 'console.action', action: 'replay', broker: 'b1', who: 'anonymous', outcome: 'done', ids: ['a', 'b'], succeeded: 2 });
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
  });

  it('does not run an action the broker refuses', async () => {
    requireCapability.mockRejectedValue(new ConsoleError('ReadOnly', 'broker "b1" is configured read-only'));
    const s = spec();
    await expect(gate(s)).rejects.toMatchObject({ code: 'ReadOnly' });
    expect(s.run).not.toHaveBeenCalled();
  });
});
