import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { setAuthConfigForTests } from '@/lib/auth/config';
import { OPERATOR_TOKEN, VIEWER_TOKEN, accountsConfig, memoryAuditStore, sessionCookie } from '@/tests/support/auth';
import { setAuditStoreForTests } from '@/lib/audit/store';

// Every write the console offers, called directly (as a forged request would) in accounts
// mode: without a session, as a viewer, from another origin, and with a bad or viewer token.
// The service's write functions must never be reached; an operator's call must.

const writes = {
  replayDead: vi.fn(async (b: string, ids: string[]) => ({
    action: 'replay',
    brokerId: b,
    requested: ids.length,
    succeeded: ids.map((id) => ({ id, outcome: 'ok', message: '' })),
    failed: [],
  })),
  convert: vi.fn(async (b: string, ids: string[]) => ({
    action: 'replay',
    brokerId: b,
    requested: ids.length,
    succeeded: ids.map((id) => ({ id, outcome: 'ok', message: '' })),
    failed: [],
  })),
  discardDead: vi.fn(async (b: string, ids: string[]) => ({
    action: 'discard',
    brokerId: b,
    requested: ids.length,
    succeeded: ids.map((id) => ({ id, outcome: 'ok', message: '' })),
    failed: [],
  })),
  revoke: vi.fn(async (b: string, ids: string[]) => ({
    action: 'revoke',
    brokerId: b,
    requested: ids.length,
    succeeded: ids.map((id) => ({ id, outcome: 'ok', message: '' })),
    failed: [],
  })),
  purge: vi.fn(async (b: string, queue: string) => ({ brokerId: b, queue, removed: 3 })),
  setQueuePaused: vi.fn(async (b: string, queue: string, paused: boolean) => ({ brokerId: b, queue, paused, pending: 0, running: 0 })),
  enqueue: vi.fn(async (b: string) => ({ brokerId: b, id: 'new-id', queue: 'default', task: 't', state: 'ready' })),
  // Not writes, but gated the same way: the preview (the adapter builds the message, unrecorded)
  // and the audited reveal of hidden arguments.
  previewEnqueue: vi.fn(async (b: string) => ({
    brokerId: b,
    id: 'p',
    queue: 'default',
    task: 't',
    state: 'ready',
    payload: '{}',
    preview: true,
    command: null,
  })),
  getTask: vi.fn(async (b: string, id: string) => ({ brokerId: b, id })),
};
vi.mock('@/lib/brokers/service', () => ({
  ...writes,
  requireCapability: vi.fn(async () => undefined),
  brokerList: () => [{ id: 'b1', name: 'b1', kind: 'sqlite' }],
  brokerModel: () => null,
  toConsoleError: (e: unknown) => (e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e))),
}));

const ops = await import('./operations');
const { revealArgs } = await import('@/lib/actions/reveal');

const ACTIONS: Array<[string, (h: Headers) => Promise<unknown>, keyof typeof writes | null]> = [
  ['replay', (h) => ops.replayDead('b1', { ids: ['a'], reason: 'r' }, h), 'replayDead'],
  ['convert', (h) => ops.convert('b1', { ids: ['a'], reason: 'r' }, h), 'convert'],
  ['discard', (h) => ops.discardDead('b1', { ids: ['a'], reason: 'r' }, h), 'discardDead'],
  ['revoke', (h) => ops.revoke('b1', { ids: ['a'], reason: 'r' }, h), 'revoke'],
  ['purge', (h) => ops.purge('b1', { queue: 'q', confirm: 'q', reason: 'r' }, h), 'purge'],
  ['pause', (h) => ops.setQueuePaused('b1', { queue: 'q', paused: true }, h), 'setQueuePaused'],
  ['resume', (h) => ops.setQueuePaused('b1', { queue: 'q', paused: false }, h), 'setQueuePaused'],
  ['enqueue', (h) => ops.enqueue('b1', { task: 't' }, h), 'enqueue'],
  ['enqueue preview', (h) => ops.previewEnqueue('b1', { task: 't' }, h), null],
  ['reveal arguments', (h) => revealArgs('b1', { kind: 'task', ids: ['a'] }, h), 'getTask'],
];

const HOST = { host: 'console.example:3000' };
const CASES: Array<[string, Record<string, string>, string]> = [
  ['without a session', { ...HOST, origin: 'http://console.example:3000' }, 'Unauthorized'],
  ['with an expired session', { ...HOST, cookie: sessionCookie('olga', undefined, -10) }, 'Unauthorized'],
  ['with a forged session', { ...HOST, cookie: sessionCookie('olga').replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) }, 'Unauthorized'],
  ['as a viewer', { ...HOST, cookie: sessionCookie('vic'), origin: 'http://console.example:3000' }, 'Forbidden'],
  ['from another origin with an operator session', { ...HOST, cookie: sessionCookie('olga'), origin: 'https://evil.example' }, 'Forbidden'],
  ['from a cross-site form', { ...HOST, cookie: sessionCookie('olga'), 'sec-fetch-site': 'cross-site' }, 'Forbidden'],
  ['with a bad token', { ...HOST, authorization: 'Bearer pqc_not-a-token' }, 'Unauthorized'],
  ['with a malformed Authorization header', { ...HOST, authorization: 'Basic b2xnYTpwdw==' }, 'Unauthorized'],
  ['with a viewer token', { ...HOST, authorization: `Bearer ${VIEWER_TOKEN}` }, 'Forbidden'],
];

let store: ReturnType<typeof memoryAuditStore>;
beforeEach(() => {
  store = memoryAuditStore();
  setAuditStoreForTests(store);
  setAuthConfigForTests(accountsConfig());
  for (const f of Object.values(writes)) f.mockClear();
  vi.spyOn(console, 'info').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  setAuthConfigForTests(null);
  setAuditStoreForTests(null);
});

describe.each(ACTIONS)('%s', (_name, call, write) => {
  it.each(CASES)('is refused %s and never reaches the broker', async (_case, headers, code) => {
    await expect(call(new Headers(headers))).rejects.toMatchObject({ code });
    for (const f of Object.values(writes)) expect(f).not.toHaveBeenCalled();
  });

  it('runs for an operator session from the same origin and for an operator token', async () => {
    await call(new Headers({ ...HOST, cookie: sessionCookie('olga'), origin: 'http://console.example:3000' }));
    await call(new Headers({ ...HOST, authorization: `Bearer ${OPERATOR_TOKEN}` }));
    if (write) expect(writes[write]).toHaveBeenCalledTimes(2);
    if (write) expect(store.entries.map((e) => e.who)).toEqual(['olga', 'token:ci']);
  });
});

describe('the write path', () => {
  const grep = async (re: string) => {
    const { execSync } = await import('node:child_process');
    return execSync(`grep -rlE "${re}" app components lib --include=*.ts --include=*.tsx || true`, { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !/\.test\.ts$/.test(f) && !f.startsWith('lib/brokers/'));
  };

  it('calls the service’s writes only from the gated operations', async () => {
    const hits = await grep(
      String.raw`service\.(replayDead|convert|discardDead|revoke|purge|enqueue|setQueuePaused)\(|import \{[^}]*\b(replayDead|convert|discardDead|revoke|purge|enqueue|setQueuePaused)\b[^}]*\} from '@/lib/brokers/service'`,
    );
    for (const f of hits) expect(['lib/actions/operations.ts', 'lib/bulk/backend.ts']).toContain(f);
  });

  it('moves letters between brokers only from the gated move and the bulk runner', async () => {
    const hits = await grep(String.raw`from '@/lib/brokers/move'`);
    for (const f of hits) expect(['lib/actions/move.ts', 'lib/bulk/backend.ts', 'lib/bulk/move-target.ts']).toContain(f);
  });

  it('never hands an adapter to app code (the registry is only used inside lib/brokers)', async () => {
    expect(await grep(String.raw`from '@/lib/brokers/registry'`)).toEqual([]);
  });
});

describe('bulk jobs', () => {
  it.each(CASES)('refuses to snapshot or start a bulk discard %s, and the broker is never touched', async (_case, headers, code) => {
    const { createBulk, controlBulk } = await import('@/lib/bulk/operations');
    const { FakeBackend } = await import('@/tests/bulk/fake-backend');
    const backend = new FakeBackend(['d1', 'd2']);
    const backendFor = vi.fn(() => backend);
    await expect(createBulk('b1', { action: 'discard', filter: { queue: 'q' } }, new Headers(headers), backendFor)).rejects.toMatchObject({
      code,
    });
    expect(backendFor).not.toHaveBeenCalled();
    // A job an operator prepared cannot be started by this caller either.
    const op = new Headers({ ...HOST, authorization: `Bearer ${OPERATOR_TOKEN}` });
    const job = await createBulk('b1', { action: 'discard', filter: { queue: 'q' } }, op, backendFor);
    await expect(controlBulk('b1', { jobId: job.id, op: 'start', reason: 'r' }, new Headers(headers))).rejects.toMatchObject({ code });
    expect(backend.calls).toEqual([]);
  });
});
