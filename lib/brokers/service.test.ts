import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from './errors';
import { CAPABILITIES, ZTaskListQuery, type BrokerOverview, type Capabilities } from './schema';
import type { BrokerAdapter, BrokerConfig } from './types';

// The service's own rules (read-only, capability refusal, error mapping) against a fake
// adapter; the adapters themselves are tested against real brokers in *.int.test.ts.
const configs: BrokerConfig[] = [];
let adapter: Partial<BrokerAdapter>;

vi.mock('./registry', () => ({
  findBrokerConfig: (id: string) => {
    const c = configs.find((x) => x.id === id);
    if (!c) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
    return c;
  },
  getAdapter: () => adapter,
  brokerKindOf: () => 'sqlite',
  listBrokerConfigs: () => configs,
}));

const service = await import('./service');

const allOn = () => Object.fromEntries(CAPABILITIES.map((k) => [k, { on: true }])) as Capabilities;
const overview = (): BrokerOverview => ({
  id: 'b',
  name: 'b',
  kind: 'sqlite',
  serverInfo: null,
  readOnly: false,
  capabilities: allOn(),
  queues: [],
  totals: { counts: { ready: 0, scheduled: 0, running: 0 }, dead: 0 },
  workers: { alive: 0, stale: 0 },
  readAt: new Date(0).toISOString(),
});

beforeEach(() => {
  configs.length = 0;
  configs.push(
    { id: 'b', name: 'b', kind: 'potatoq', url: 'sqlite:///x', readOnly: false, options: {} },
    { id: 'ro', name: 'ro', kind: 'potatoq', url: 'sqlite:///y', readOnly: true, options: {} },
  );
  adapter = { capabilities: async () => allOn(), overview: async () => overview() };
});

describe('service', () => {
  it('turns every action off in the overview of a read-only broker, leaving reads on', async () => {
    const o = await service.overview('ro');
    expect(o.readOnly).toBe(true);
    expect(o.capabilities.replay).toEqual({ on: false, why: 'configured read-only', code: 'ReadOnly' });
    expect(o.capabilities.browseDead).toEqual({ on: true });
  });

  it('reports workers as unknown (null), never 0, where the adapter declares it cannot see them', async () => {
    const why = 'no worker registry';
    adapter = { ...adapter, overview: async () => ({ ...overview(), capabilities: { ...allOn(), workers: { on: false, why } } }) };
    const o = await service.overview('b');
    expect(o.workers).toBeNull();
    expect(o.capabilities.workers).toEqual({ on: false, why });
    adapter = { ...adapter, overview: async () => overview() };
    expect((await service.overview('b')).workers).toEqual({ alive: 0, stale: 0 });
  });

  it('refuses writes on a read-only broker before reaching the adapter', async () => {
    const replayDead = vi.fn();
    adapter = { ...adapter, replayDead };
    await expect(service.replayDead('ro', ['x'])).rejects.toMatchObject({ code: 'ReadOnly' });
    expect(replayDead).not.toHaveBeenCalled();
  });

  it("refuses an action the adapter reports as off, with the adapter's reason", async () => {
    const purge = vi.fn();
    adapter = { ...adapter, purge, capabilities: async () => ({ ...allOn(), purge: { on: false, why: 'no purge here' } }) };
    await expect(service.purge('b', 'q')).rejects.toMatchObject({ code: 'Unsupported', message: 'no purge here' });
    expect(purge).not.toHaveBeenCalled();
  });

  it('maps driver errors to BrokerUnavailable without leaking credentials', async () => {
    adapter = { ...adapter, listWorkers: async () => Promise.reject(new Error('connect to amqp://user:secret@host failed')) };
    const err = await service.listWorkers('b').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'BrokerUnavailable' });
    expect((err as Error).message).not.toContain('secret');
  });

  it('refuses a NUL in ids, filters or search text before the adapter sees it', async () => {
    const listTasks = vi.fn();
    const getTask = vi.fn();
    const replayDead = vi.fn();
    adapter = { ...adapter, listTasks, getTask, replayDead };
    await expect(service.listTasks('b', { queue: 'q', state: 'ready', limit: 50, q: 'a\u0000b' } as never)).rejects.toMatchObject({
      code: 'InvalidInput',
      status: 400,
    });
    await expect(service.getTask('b', 'id\u0000')).rejects.toMatchObject({ code: 'InvalidInput' });
    await expect(service.replayDead('b', ['ok', 'x\u0000'])).rejects.toMatchObject({ code: 'InvalidInput' });
    expect([listTasks, getTask, replayDead].map((f) => f.mock.calls.length)).toEqual([0, 0, 0]);
  });

  it('never hands a PostgreSQL server error text to callers, only its SQLSTATE', async () => {
    const pgError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00 in SELECT secret_column'), {
      severity: 'ERROR',
      code: '22021',
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    adapter = { ...adapter, listWorkers: async () => Promise.reject(pgError) };
    const err = await service.listWorkers('b').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'BrokerUnavailable' });
    expect((err as Error).message).toContain('SQLSTATE 22021');
    expect((err as Error).message).not.toMatch(/secret_column|0x00|UTF8/);
  });

  it('turns a missing task into NotFound', async () => {
    adapter = { ...adapter, getTask: async () => null };
    await expect(service.getTask('b', 'nope')).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('reports one failing broker as an entry, not as a thrown error', async () => {
    adapter = { ...adapter, overview: async () => Promise.reject(new ConsoleError('NotMigrated', 'run potatoq migrate')) };
    const all = await service.overviewAll();
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ ok: false, error: { code: 'NotMigrated' } });
  });
});

describe('boot check', () => {
  it("names each broker its adapter refuses or cannot reach, with the adapter's reason, and passes the rest", async () => {
    const refusal = 'this is a Redis Cluster node: potatoq 26.1a8 does not support Redis Cluster';
    let call = 0;
    adapter = {
      capabilities: async () => {
        call += 1;
        if (call === 1) throw new ConsoleError('Unsupported', refusal);
        return allOn();
      },
    };
    expect(await service.bootCheck()).toEqual([{ id: 'b', code: 'Unsupported', message: refusal }]);
    adapter = { capabilities: async () => Promise.reject(new Error('connect ECONNREFUSED')) };
    expect((await service.bootCheck()).map((r) => [r.id, r.code])).toEqual([
      ['b', 'BrokerUnavailable'],
      ['ro', 'BrokerUnavailable'],
    ]);
  });
});

describe('declared model', () => {
  const model: BrokerAdapter['model'] = {
    system: 'sdj',
    states: [
      {
        key: 'pending',
        label: 'Pending',
        time: { field: 'createdAt', label: 'Enqueued' },
        order: { by: 'claim', label: 'claim order' },
        owned: false,
      },
    ],
    actions: {
      replay: { does: 'r', bulkRate: null },
      discard: { does: 'd' },
      revoke: { does: 'v', bulk: 'vb' },
      purge: { does: 'p', what: 'w', counts: ['pending'], stays: 's' },
      enqueue: { does: 'e', defaultQueue: 'default', fields: [] },
    },
  };

  it("adds the adapter's model to its overview", async () => {
    adapter = { ...adapter, model };
    expect((await service.overview('b')).model).toBe(model);
  });

  it("refuses to list a declared state whose listing capability is off, in the adapter's words", async () => {
    const listTasks = vi.fn();
    const why = 'SDJ keeps paused jobs in a table the console may not read';
    adapter = { ...adapter, model, listTasks, capabilities: async () => ({ ...allOn(), 'list:pending': { on: false, why } }) };
    await expect(service.listTasks('b', ZTaskListQuery.parse({ state: 'pending' }))).rejects.toMatchObject({
      code: 'Unsupported',
      message: why,
    });
    expect(listTasks).not.toHaveBeenCalled();
  });

  it('refuses a state the adapter did not declare, before reaching it', async () => {
    const listTasks = vi.fn();
    adapter = { ...adapter, model, listTasks, capabilities: async () => ({ ...allOn(), 'list:pending': { on: true } }) };
    await expect(service.listTasks('b', ZTaskListQuery.parse({ state: 'ready' }))).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { state: 'one of pending' },
    });
    expect(listTasks).not.toHaveBeenCalled();
    await service.listTasks('b', ZTaskListQuery.parse({ state: 'pending' }));
    expect(listTasks).toHaveBeenCalledOnce();
  });

  it('finds an id as a waiting task, a dead letter and a result at once, without arguments', async () => {
    adapter = {
      ...adapter,
      getTask: async (id: string) =>
        ({ id, state: 'scheduled', task: 'shop.charge', queue: 'billing', createdAt: '2026-01-01T00:00:00.000Z' }) as unknown as Awaited<
          ReturnType<BrokerAdapter['getTask']>
        >,
      getDead: async () => null,
      getResult: async (id: string) =>
        ({ id, status: 'REVOKED', name: 'shop.charge', dateDone: '2026-01-02T00:00:00.000Z' }) as unknown as Awaited<
          ReturnType<BrokerAdapter['getResult']>
        >,
    };
    const f = await service.findInBroker('b', 'abc');
    expect(f).toEqual({
      brokerId: 'b',
      name: 'b',
      items: [
        { kind: 'task', state: 'scheduled', task: 'shop.charge', queue: 'billing', at: '2026-01-01T00:00:00.000Z' },
        { kind: 'result', state: 'REVOKED', task: 'shop.charge', queue: null, at: '2026-01-02T00:00:00.000Z' },
      ],
      notSearched: [],
    });
  });

  it('reports a lookup the broker cannot do (or that fails) as not searched, keeping what the others found', async () => {
    adapter = {
      ...adapter,
      getTask: async () => null,
      getDead: async () => Promise.reject(new ConsoleError('Unsupported', 'RabbitMQ 3.10: browsing the DLQ would delete its messages')),
      getResult: async () => Promise.reject(new Error('redis://u:pw@h down')),
    };
    const f = await service.findInBroker('b', 'abc');
    expect(f.items).toEqual([]);
    expect(f.notSearched).toEqual(
      expect.arrayContaining([
        { what: 'dead letters', code: 'Unsupported', message: 'RabbitMQ 3.10: browsing the DLQ would delete its messages' },
        { what: 'results', code: 'BrokerUnavailable', message: 'redis://u:***@h down' },
      ]),
    );
    const nul = await service.findInBroker('b', 'a\u0000b');
    expect(nul.notSearched.map((n) => n.code)).toEqual(['InvalidInput', 'InvalidInput', 'InvalidInput']);
  });
});
