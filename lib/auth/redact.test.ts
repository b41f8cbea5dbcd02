import { afterEach, describe, expect, it, vi } from 'vitest';
import { HIDDEN_RAW, HIDDEN_TEXT } from '@/lib/redaction';
import { parseAuthConfig, setAuthConfigForTests } from './config';

const detail = {
  id: 't1',
  queue: 'q',
  task: 'x',
  preview: { kind: 'native', text: "('4111',)" },
  raw: '{"args":["4111"]}',
  rawSize: 17,
  rawTruncated: false,
  payload: {
    format: 'potatoq',
    task: 'x',
    id: 't1',
    queue: 'q',
    args: { t: 'list', items: [{ t: 'str', v: '4111' }] },
    kwargs: { t: 'dict', entries: [] },
    fields: [
      { name: 'task', value: { t: 'str', v: 'x' } },
      { name: 'args', value: { t: 'list', items: [{ t: 'str', v: '4111' }] }, carriesArgs: true },
    ],
    headers: [],
    flags: [],
    foreign: null,
    value: null,
  },
  result: { id: 't1', status: 'FAILURE', record: { t: 'str', v: '4111' }, raw: '{"args":["4111"]}', traceback: 'Traceback' },
};
const letter = {
  ...detail,
  summary: 'boom',
  diedAt: null,
  reason: 'Traceback',
  payload: { ...detail.payload, foreign: { code: 'celery-v2' } },
  conversion: { ok: true, from: 'Celery', to: 'potatoq', task: 'x', id: 't1', queue: 'q', json: '{"task":"x","args":["4111"]}', note: '' },
};
const deadQueries: unknown[] = [];
// One shared answer, as the service's shared reads give every caller within their reuse time.
const sharedTasks = vi.hoisted(() => ({ page: {} as object, next: false }));
vi.mock('@/lib/brokers/service', () => ({
  getTask: async () => detail,
  getDead: async () => letter,
  listTasks: async () => (sharedTasks.next ? { ...sharedTasks.page } : sharedTasks.page),
  listDead: async (_b: string, q: unknown) => (deadQueries.push(q), { items: [], nextCursor: null }),
}));
const reads = await import('./redact');
sharedTasks.page = { items: [{ id: 't1', queue: 'q', task: 'x', preview: detail.preview }], nextCursor: null };

afterEach(() => setAuthConfigForTests(null));

describe('argument redaction', () => {
  it('is off by default: reads are the service’s', async () => {
    setAuthConfigForTests(parseAuthConfig({}));
    expect(await reads.readTask('b', 't1')).toBe(detail);
  });
  it('hides previews, args, kwargs, the raw message and the result record, keeping names and tracebacks', async () => {
    setAuthConfigForTests(parseAuthConfig({ POTATOQ_CONSOLE_REDACT_ARGS: '1' }));
    const d = await reads.readTask('b', 't1');
    const text = JSON.stringify(d);
    expect(text).not.toContain('4111');
    expect(d.preview.text).toBe(HIDDEN_TEXT);
    expect(d.raw).toBe(HIDDEN_RAW);
    expect(d.result?.traceback).toBe('Traceback');
    expect(d.task).toBe('x');
    expect(JSON.stringify(await reads.readTasks('b', {} as never))).not.toContain('4111');
  });
  it('refuses a text search in task arguments and narrows a dead-letter search to reasons', async () => {
    setAuthConfigForTests(parseAuthConfig({ POTATOQ_CONSOLE_REDACT_ARGS: '1' }));
    await expect(reads.readTasks('b', { q: '4111' } as never)).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { q: reads.SEARCH_HIDDEN },
    });
    await reads.readDead('b', { q: '4111', qIn: 'all' } as never);
    expect(deadQueries.at(-1)).toMatchObject({ q: '4111', qIn: 'reason' });
    setAuthConfigForTests(parseAuthConfig({}));
    await reads.readDead('b', { q: '4111' } as never);
    expect(deadQueries.at(-1)).toEqual({ q: '4111' });
  });
  it('redacts a shared list once for every reader, leaving the shared answer whole', async () => {
    setAuthConfigForTests(parseAuthConfig({ POTATOQ_CONSOLE_REDACT_ARGS: '1' }));
    const [a, b] = [await reads.readTasks('b', {} as never), await reads.readTasks('b', {} as never)];
    expect(a).toBe(b);
    expect(a.items[0]?.preview.text).toBe(HIDDEN_TEXT);
    expect(JSON.stringify(sharedTasks.page)).toContain('4111');
    sharedTasks.next = true; // the next shared read: a new answer, a new copy
    expect(await reads.readTasks('b', {} as never)).not.toBe(a);
    sharedTasks.next = false;
  });
  it("hides a dead letter's conversion preview, which repeats the arguments", async () => {
    setAuthConfigForTests(parseAuthConfig({ POTATOQ_CONSOLE_REDACT_ARGS: '1' }));
    const d = await reads.readDeadOne('b', 't1');
    expect(JSON.stringify(d)).not.toContain('4111');
    expect(d.conversion).toMatchObject({ ok: true, task: 'x', json: HIDDEN_RAW });
  });
});
