import { describe, expect, it, vi } from 'vitest';
import { ConsoleError } from './errors';
import { createSqlMoveHeld } from './move-held';
import { moveWaitingOne, type WaitingSteps } from './move-waiting-one';
import type { TaskCall } from './types';
import { never, withJournalEachTest } from '@/tests/brokers/move-support';

// One waiting task's move with fake brokers and the real journal and held-call tables (SQLite
// in memory): taken before it is sent, held across a crash, sent again under its key, and left
// to a worker that took it first.

const t = withJournalEachTest();
const by = { by: 'olga', leaseMs: 60_000 };
const callOf = (id: string): TaskCall => ({
  id,
  task: 't',
  queue: 'q',
  args: { k: 'list', items: [] },
  kwargs: { k: 'dict', entries: [] },
  priority: null,
  expiresMs: null,
  ignoreResult: null,
  rootId: null,
  parentId: null,
});

/** A source queue and a keyed target (the same id again: `already`). */
function brokers() {
  const queue = new Set(['a']);
  const took = new Set<string>();
  const jobs = new Map<string, number>();
  const steps = {
    from: { id: 'src', name: 'Source' },
    to: { id: 'dst', name: 'Target' },
    peek: vi.fn(async (id: string) => (queue.has(id) ? { call: callOf(id), claim: `raw-${id}` } : null)),
    check: vi.fn(async () => {}),
    take: vi.fn(async (id: string, claim: string) => {
      expect(claim).toBe(`raw-${id}`);
      if (!queue.delete(id)) return false;
      took.add(id);
      return true;
    }),
    took: vi.fn(async (id: string) => took.has(id)),
    enqueue: vi.fn(async (c: TaskCall) => {
      const n = jobs.get(c.id);
      jobs.set(c.id, (n ?? 0) + 1);
      return n ? { outcome: 'already' as const, message: 'as job 1' } : { outcome: 'ok' as const, message: 'as job 1', taskId: '1' };
    }),
    nameOf: (id: string) => (id === 'dst' ? 'Target' : id),
  } satisfies WaitingSteps;
  return { queue, jobs, steps };
}

const held = () => createSqlMoveHeld(t.db);
const heldRows = () => t.db.all('SELECT id FROM console_move_held', []);

describe('a waiting task moved under the journal', () => {
  it('holds the call before the take, takes it, sends it once, and leaves no row', async () => {
    const b = brokers();
    b.steps.take.mockImplementationOnce(async (id) => {
      expect(await held().get('src', id)).toMatchObject({ call: { id: 'a' }, claim: 'raw-a' });
      b.queue.delete(id);
      return true;
    });
    const o = await moveWaitingOne(t.journal, held(), b.steps, 'a', by);
    expect(o).toEqual({ id: 'a', outcome: 'ok', taskId: '1', message: 'created on Target (as job 1); taken from Source' });
    expect(b.queue.size).toBe(0);
    expect(await heldRows()).toEqual([]);
    expect(await t.journal.get('src', 'a')).toBeNull();
  });

  it('a call the target cannot take is refused before anything is taken', async () => {
    const b = brokers();
    b.steps.check.mockRejectedValueOnce(new ConsoleError('InvalidInput', 'task "t" has no call mapping'));
    expect(await moveWaitingOne(t.journal, held(), b.steps, 'a', by)).toMatchObject({ outcome: 'invalid' });
    expect(b.queue.has('a')).toBe(true);
    expect(b.steps.take).not.toHaveBeenCalled();
    expect(await heldRows()).toEqual([]);
  });

  it('a worker that took it first keeps it: nothing sent', async () => {
    const b = brokers();
    b.steps.take.mockResolvedValueOnce(false);
    expect(await moveWaitingOne(t.journal, held(), b.steps, 'a', by)).toMatchObject({
      outcome: 'conflict',
      message: expect.stringMatching(/a worker on Source took it/),
    });
    expect(b.jobs.size).toBe(0);
    expect(await t.journal.get('src', 'a')).toBeNull();
  });

  it('a console that stopped after the take: the next move sends the held call, once', async () => {
    const b = brokers();
    b.steps.enqueue.mockImplementationOnce(never);
    void moveWaitingOne(t.journal, held(), b.steps, 'a', { ...by, leaseMs: 20 });
    await vi.waitFor(() => expect(b.queue.size).toBe(0));
    await new Promise((r) => setTimeout(r, 30));
    const o = await moveWaitingOne(t.journal, held(), b.steps, 'a', { by: 'bob', leaseMs: 60_000 });
    expect(o).toMatchObject({ outcome: 'ok', message: expect.stringMatching(/^after an earlier move .* by olga .*created on Target/) });
    expect(b.jobs.get('a')).toBe(1);
    expect(await heldRows()).toEqual([]);
  });

  it('a console that stopped after sending: the next move gets the first job back ("already")', async () => {
    const b = brokers();
    const first = b.steps.enqueue.getMockImplementation()!;
    b.steps.enqueue.mockImplementationOnce(async (c) => (await first(c), never()));
    void moveWaitingOne(t.journal, held(), b.steps, 'a', { ...by, leaseMs: 20 });
    await vi.waitFor(() => expect(b.jobs.get('a')).toBe(1));
    await new Promise((r) => setTimeout(r, 30));
    expect(await moveWaitingOne(t.journal, held(), b.steps, 'a', by)).toMatchObject({ outcome: 'already' });
    expect(await t.journal.get('src', 'a')).toBeNull();
  });

  it('a console that stopped between hold and take, then a worker took it: nothing sent', async () => {
    const b = brokers();
    b.steps.take.mockImplementationOnce(never);
    void moveWaitingOne(t.journal, held(), b.steps, 'a', { ...by, leaseMs: 20 });
    await vi.waitFor(() => expect(b.steps.take).toHaveBeenCalled());
    b.queue.delete('a'); // the worker's claim
    await new Promise((r) => setTimeout(r, 30));
    expect(await moveWaitingOne(t.journal, held(), b.steps, 'a', by)).toMatchObject({
      outcome: 'conflict',
      message: expect.stringMatching(/a worker on Source took it/),
    });
    expect(b.jobs.size).toBe(0);
    expect(await heldRows()).toEqual([]);
  });

  it('a move still running: another sends nothing', async () => {
    const b = brokers();
    b.steps.enqueue.mockImplementationOnce(never);
    void moveWaitingOne(t.journal, held(), b.steps, 'a', by);
    await vi.waitFor(() => expect(b.queue.size).toBe(0));
    expect(await moveWaitingOne(t.journal, held(), b.steps, 'a', by)).toMatchObject({
      outcome: 'conflict',
      message: expect.stringMatching(/being moved by another operation/),
    });
  });

  it('a target that fails after the take keeps the call held: moving again sends it', async () => {
    const b = brokers();
    b.steps.enqueue.mockRejectedValueOnce(new ConsoleError('BrokerUnavailable', 'down'));
    expect(await moveWaitingOne(t.journal, held(), b.steps, 'a', by)).toMatchObject({
      outcome: 'error',
      message: expect.stringMatching(/held in the console's move journal/),
    });
    expect(await heldRows()).toHaveLength(1);
    expect(await moveWaitingOne(t.journal, held(), b.steps, 'a', by)).toMatchObject({ outcome: 'ok' });
    expect(b.jobs.get('a')).toBe(1);
  });
});

describe('the held call', () => {
  it('comes back as it went in, values JSON cannot hold included', async () => {
    const call: TaskCall = {
      ...callOf('z'),
      args: {
        k: 'list',
        items: [
          { k: 'timedelta', us: 12345678901234567890n },
          { k: 'bytes', data: new Uint8Array([0, 255, 7]) },
          { k: 'float', v: Number.NaN },
          { k: 'float', v: -Infinity },
          { k: 'dict', entries: [['$big', { k: 'str', v: 'x' }]] },
        ],
      },
    };
    await held().hold('src', { moveId: 'm', call, claim: 'c' });
    expect(await held().get('src', 'z')).toEqual({ moveId: 'm', call, claim: 'c' });
  });
});
