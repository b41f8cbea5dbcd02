import { describe, expect, it, vi } from 'vitest';
import { ConsoleError } from './errors';
import type { MoveJournal } from './move-journal';
import { moveOne, type MoveBy } from './move-one';
import { brokers, never, withJournalEachTest } from '@/tests/brokers/move-support';

// One id's move under the journal, with fake brokers and the real journal tables (SQLite in
// memory): a crash between the steps never sends twice, whatever the target remembers.

const t = withJournalEachTest();

const olga: MoveBy = { by: 'olga', leaseMs: 60_000 };
const rows = () => t.db.all<{ id: string; who: string; note: string | null }>('SELECT id, who, note FROM console_move_journal', []);

/** Step 2 never returns: the console "crashed" after the task reached the target. */
async function crashAfterEnqueue(b: ReturnType<typeof brokers>, by: MoveBy = olga) {
  b.steps.remove.mockImplementationOnce(never);
  void moveOne(t.journal, b.steps, 'a', by);
  await vi.waitFor(() => expect(b.sent).toEqual(['a']));
}

describe('a move under the journal', () => {
  it('sends once, removes the letter, and leaves no row', async () => {
    const b = brokers();
    expect(await moveOne(t.journal, b.steps, 'a', olga)).toEqual({
      id: 'a',
      outcome: 'ok',
      message: 'enqueued on Target (enqueued); removed from Source',
    });
    expect(b.sent).toEqual(['a']);
    expect(b.letters.has('a')).toBe(false);
    expect(await rows()).toEqual([]);
  });

  it('writes the row before the target sees anything, and keeps it while the move runs', async () => {
    const b = brokers();
    b.steps.enqueue.mockImplementationOnce(async () => {
      expect(await rows()).toEqual([{ id: 'a', who: 'olga', note: null }]);
      return { outcome: 'ok', message: 'enqueued' };
    });
    expect((await moveOne(t.journal, b.steps, 'a', olga)).outcome).toBe('ok');
    expect(b.steps.enqueue).toHaveBeenCalledOnce();
  });

  it('after a crash, a target without a trace of the task: nothing is sent again, and the operator is told why and what to do', async () => {
    const b = brokers();
    b.remembers = false; // ignore_result: the task ran there and left nothing
    await crashAfterEnqueue(b, { ...olga, leaseMs: 30 });
    const row = await t.journal.get('src', 'a');
    await new Promise((r) => setTimeout(r, 40));
    const o = await moveOne(t.journal, b.steps, 'a', { by: 'bob', leaseMs: 60_000 });
    expect(o).toMatchObject({ id: 'a', outcome: 'conflict', forcible: true });
    expect(o.message).toContain(`a previous move at ${row!.at} by olga may have delivered it to Target, and it may have run there`);
    expect(o.message).toMatch(/Nothing was sent\. .*discard the letter here.*replay it here.*"move anyway" \(force\)/);
    expect(b.sent).toEqual(['a']);
    expect(b.letters.has('a')).toBe(true);
    expect(await rows()).toHaveLength(1);
  });

  it('after a crash, a retry while the move could still be running says so and sends nothing', async () => {
    const b = brokers();
    b.remembers = false;
    await crashAfterEnqueue(b);
    const o = await moveOne(t.journal, b.steps, 'a', { by: 'bob', leaseMs: 60_000, force: true });
    expect(o).toMatchObject({
      outcome: 'conflict',
      message: expect.stringMatching(/^not moved: it is being moved by another operation \(a move at .* by olga to Target/),
    });
    expect(b.sent).toEqual(['a']);
  });

  it('after a crash, a target that reports the id: only the letter is removed, and the row goes', async () => {
    const b = brokers();
    await crashAfterEnqueue(b, { ...olga, leaseMs: 1 });
    await new Promise((r) => setTimeout(r, 5));
    const o = await moveOne(t.journal, b.steps, 'a', olga);
    expect(o).toMatchObject({
      outcome: 'already',
      message: expect.stringMatching(
        /^already on Target \(a task with this id is already waiting here\), sent there by a move at .* by olga to Target; removed from Source$/,
      ),
    });
    expect(b.steps.enqueue).toHaveBeenCalledOnce();
    expect(b.letters.has('a')).toBe(false);
    expect(await rows()).toEqual([]);
  });

  it('moves anyway with force, once, and says over what', async () => {
    const b = brokers();
    b.remembers = false;
    await crashAfterEnqueue(b, { ...olga, leaseMs: 1 });
    await new Promise((r) => setTimeout(r, 5));
    const o = await moveOne(t.journal, b.steps, 'a', { by: 'bob', leaseMs: 60_000, force: true });
    expect(o).toMatchObject({
      outcome: 'ok',
      message: expect.stringMatching(/^moved anyway over a move at .* by olga to Target that did not finish: enqueued on Target/),
    });
    expect(b.sent).toEqual(['a', 'a']);
    expect(await rows()).toEqual([]);
  });

  it('a failed removal keeps the row with what happened; the retry needs no wait and tells it', async () => {
    const b = brokers();
    b.remembers = false;
    b.steps.remove.mockResolvedValueOnce({ id: 'a', outcome: 'error', message: 'database is locked' });
    expect(await moveOne(t.journal, b.steps, 'a', olga)).toMatchObject({
      outcome: 'error',
      message: expect.stringContaining('move it again to remove it'),
    });
    expect((await rows())[0]?.note).toMatch(/removing it from Source failed \(database is locked\)/);
    const o = await moveOne(t.journal, b.steps, 'a', olga);
    expect(o).toMatchObject({
      outcome: 'conflict',
      forcible: true,
      message: expect.stringContaining('removing it from Source failed (database is locked)'),
    });
    expect(b.sent).toEqual(['a']);
  });

  it('forgets a move that sent nothing (refused value, letter gone, read failed) and keeps one whose enqueue may have landed', async () => {
    const b = brokers();
    b.steps.enqueue.mockRejectedValueOnce(new ConsoleError('InvalidInput', 'a set cannot go to JSON'));
    expect(await moveOne(t.journal, b.steps, 'a', olga)).toMatchObject({
      outcome: 'invalid',
      message: 'not moved: a set cannot go to JSON',
    });
    expect(await rows()).toEqual([]);
    expect(await moveOne(t.journal, b.steps, 'nope', olga)).toMatchObject({ outcome: 'missing' });
    b.steps.read.mockRejectedValueOnce(new ConsoleError('BrokerUnavailable', 'down'));
    expect(await moveOne(t.journal, b.steps, 'a', olga)).toMatchObject({ outcome: 'error', message: 'not moved: down' });
    expect(await rows()).toEqual([]);
    b.steps.enqueue.mockRejectedValueOnce(new ConsoleError('BrokerTimeout', 'enqueue took longer than 1s'));
    expect(await moveOne(t.journal, b.steps, 'a', olga)).toMatchObject({
      outcome: 'error',
      message: expect.stringContaining('may or may not have arrived there'),
    });
    expect(await rows()).toEqual([{ id: 'a', who: 'olga', note: expect.stringContaining('enqueue on Target failed') }]);
  });

  it('two moves of one id at once: one enqueue; the other is told another operation moves it', async () => {
    const b = brokers();
    b.remembers = false;
    let release = () => {};
    b.steps.enqueue.mockImplementationOnce(async (c) => {
      await new Promise<void>((r) => (release = r));
      b.sent.push(c.id);
      return { outcome: 'ok', message: 'enqueued' };
    });
    const first = moveOne(t.journal, b.steps, 'a', olga);
    const second = moveOne(t.journal, b.steps, 'a', { by: 'bob', leaseMs: 60_000 });
    const lost = await second;
    release();
    expect(await first).toMatchObject({ outcome: 'ok' });
    expect(lost).toMatchObject({ outcome: 'conflict', message: expect.stringContaining('being moved by another operation') });
    expect(b.sent).toEqual(['a']);
  });

  it('a row whose letter has left since (the move finished but for its row) is cleared, nothing sent', async () => {
    const b = brokers();
    b.steps.remove.mockImplementationOnce(async (id) => (b.letters.delete(id), never()));
    void moveOne(t.journal, b.steps, 'a', { ...olga, leaseMs: 1 });
    await vi.waitFor(() => expect(b.letters.has('a')).toBe(false));
    await new Promise((r) => setTimeout(r, 5));
    expect(await moveOne(t.journal, b.steps, 'a', olga)).toMatchObject({
      outcome: 'missing',
      message: expect.stringMatching(/not a dead letter on Source any more; a move at .* by olga to Target did not finish/),
    });
    expect(await rows()).toEqual([]);
    expect(b.sent).toEqual(['a']);
  });

  it('sends nothing when the journal cannot be written', async () => {
    const b = brokers();
    const broken: MoveJournal = { ...t.journal, begin: () => Promise.reject(new Error('disk full')) };
    expect(await moveOne(broken, b.steps, 'a', olga)).toEqual({
      id: 'a',
      outcome: 'error',
      message: 'not moved: the move journal could not be written (disk full); nothing was sent',
    });
    expect(b.steps.read).not.toHaveBeenCalled();
    expect(b.sent).toEqual([]);
  });
});

describe('a move to a keyed target (its import returns the first task for the same key)', () => {
  it('after a crash, sends again without asking the target, gets the first task back and removes the letter', async () => {
    const b = brokers();
    b.steps.to = { id: 'dst', name: 'Target', keyed: 'the same key returns the first job' };
    await crashAfterEnqueue(b, { ...olga, leaseMs: 30 });
    await new Promise((r) => setTimeout(r, 40));
    const o = await moveOne(t.journal, b.steps, 'a', { by: 'bob', leaseMs: 60_000 });
    expect(o).toEqual({
      id: 'a',
      outcome: 'already',
      message: expect.stringMatching(/^sent again after a move at .* by olga .*\(the same key returns the first job\): already on Target/),
    });
    expect(b.steps.seen).not.toHaveBeenCalled();
    expect(b.steps.enqueue).toHaveBeenCalledTimes(2);
    expect(b.sent).toEqual(['a']);
    expect(b.letters.has('a')).toBe(false);
    expect(await rows()).toEqual([]);
  });

  it('passes the job id the target gave on to the outcome', async () => {
    const b = brokers();
    b.steps.enqueue.mockImplementationOnce(async () => ({ outcome: 'ok', message: 'as job J', taskId: 'J' }));
    expect(await moveOne(t.journal, b.steps, 'a', olga)).toEqual({
      id: 'a',
      outcome: 'ok',
      taskId: 'J',
      message: 'enqueued on Target (as job J); removed from Source',
    });
  });
});
