import { describe, expect, it, vi } from 'vitest';
import type { JournalRow } from './move-journal';
import { moveOne, type MoveBy } from './move-one';
import { brokers, call, never, withJournalEachTest } from '@/tests/brokers/move-support';

// The journal forgets the rows of letters that left their source by a replay or a discard
// (lib/brokers/move-journal-forget.ts), and only rows that can no longer be a move in flight:
// with fake brokers and the real journal table (SQLite in memory).

const t = withJournalEachTest();

const olga: MoveBy = { by: 'olga', leaseMs: 60_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const row = (id: string, over: Partial<JournalRow> = {}): JournalRow => ({
  source: 'src',
  id,
  target: 'dst',
  moveId: `m-${id}`,
  at: '2026-12-01T10:00:00.000Z',
  who: 'olga',
  auditId: null,
  untilMs: 0,
  note: 'stopped',
  ...over,
});

/** The console "crashed" after the task reached a target that keeps no trace of it. */
async function crashedMove(b: ReturnType<typeof brokers>, leaseMs = 1) {
  b.remembers = false;
  b.steps.remove.mockImplementationOnce(never);
  void moveOne(t.journal, b.steps, 'a', { ...olga, leaseMs });
  await vi.waitFor(() => expect(b.sent).toEqual(['a']));
  await sleep(5);
}

/** A console replay at the source: the letter leaves, then its rows are forgotten. */
async function replayHere(b: ReturnType<typeof brokers>, id: string) {
  const began = new Date().toISOString();
  b.letters.delete(id);
  return t.journal.forget('src', [id], began, Date.now());
}

describe('the move journal forgets letters that left their source', () => {
  it('deletes stopped rows of the given ids that began before the replay, and no others', async () => {
    await t.journal.begin(row('a'));
    await t.journal.begin(row('b'));
    await t.journal.begin(row('c', { untilMs: Date.now() + 60_000 }));
    await t.journal.begin(row('d', { at: '2026-12-01T10:00:05.000Z' }));
    await t.journal.begin({ ...row('a'), source: 'other' });
    expect(await t.journal.forget('src', ['a', 'c', 'd', 'zz'], '2026-12-01T10:00:01.000Z', Date.now())).toBe(1);
    expect(await t.journal.get('src', 'a')).toBeNull();
    for (const [s, id] of [
      ['src', 'b'], // not replayed
      ['src', 'c'], // its move may still be running
      ['src', 'd'], // its move began after the replay did
      ['other', 'a'], // another source
    ] as const)
      expect(await t.journal.get(s, id)).toMatchObject({ id });
  });

  it('forgets many ids in chunks', async () => {
    const ids = Array.from({ length: 1203 }, (_, i) => `x${i}`);
    for (const id of ids) await t.journal.begin(row(id));
    expect(await t.journal.forget('src', ids, '2026-12-01T10:00:01.000Z', Date.now())).toBe(1203);
  });

  it('a letter replayed after an unfinished move, dead again, moves without the old warning, once', async () => {
    const b = brokers();
    await crashedMove(b);
    expect(await replayHere(b, 'a')).toBe(1);
    b.letters.add('a'); // the replayed task failed again
    const o = await moveOne(t.journal, b.steps, 'a', { by: 'bob', leaseMs: 60_000 });
    expect(o).toEqual({ id: 'a', outcome: 'ok', message: 'enqueued on Target (enqueued); removed from Source' });
    expect(b.sent).toEqual(['a', 'a']);
    expect(await t.journal.get('src', 'a')).toBeNull();
  });

  it('without the forget, that move is stopped by the old move (what a stale row did)', async () => {
    const b = brokers();
    await crashedMove(b);
    const o = await moveOne(t.journal, b.steps, 'a', { by: 'bob', leaseMs: 60_000 });
    expect(o).toMatchObject({ outcome: 'conflict', forcible: true, message: expect.stringContaining('a previous move at') });
    expect(b.sent).toEqual(['a']);
  });

  it('a replay while the move may still be running keeps its row: a later move still sends nothing', async () => {
    const b = brokers();
    await crashedMove(b, 60_000);
    expect(await replayHere(b, 'a')).toBe(0);
    b.letters.add('a');
    const o = await moveOne(t.journal, b.steps, 'a', { by: 'bob', leaseMs: 60_000, force: true });
    expect(o).toMatchObject({ outcome: 'conflict', message: expect.stringContaining('being moved by another operation') });
    expect(b.sent).toEqual(['a']);
  });

  it("a move's own removal of the letter does not forget it: the row stays until that move clears it", async () => {
    const b = brokers();
    b.steps.remove.mockImplementationOnce(async (id) => {
      expect(await t.journal.forget('src', [id], new Date().toISOString(), Date.now())).toBe(0);
      b.letters.delete(id);
      return { id, outcome: 'ok', message: 'discarded' };
    });
    expect((await moveOne(t.journal, b.steps, 'a', olga)).outcome).toBe('ok');
    expect(b.sent).toEqual(['a']);
  });
});

describe('a move says what the target could not keep of the call', () => {
  it("names the target's declared reason for an ignore_result call, and says nothing for others", async () => {
    const b = brokers();
    b.steps.to = { ...b.steps.to, drops: { ignoreResult: 'this system has no per-call ignore_result' } };
    b.steps.read.mockResolvedValueOnce(call('a', true));
    expect((await moveOne(t.journal, b.steps, 'a', olga)).message).toBe(
      'enqueued on Target (enqueued) without its ignore_result (this system has no per-call ignore_result), so the target may store its result; removed from Source',
    );
    b.letters.add('b');
    expect((await moveOne(t.journal, b.steps, 'b', olga)).message).toBe('enqueued on Target (enqueued); removed from Source');
  });
});
