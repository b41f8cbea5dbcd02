// A console replay or discard of a letter forgets the move journal's record of an earlier move
// of it that did not finish, so the letter the replayed task leaves when it dies again moves
// as a new letter; a move that may still be running keeps its record. Real potatoq 26.1a8
// workers on SQLite (the source, where `mv.quiet` fails) and PostgreSQL (the target, where it
// runs and, an ignore_result task, stores no result), from tests/support/move-journal-rig.ts.
// int-lane: uses redis/0 (the rig: a key prefix of its own)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@/tests/support/solo-worker';
import {
  cleanUp,
  journalRow,
  letter,
  logs,
  move,
  runs,
  service,
  sleep,
  startWorkers,
  unfinishedMove,
  up,
} from '@/tests/support/move-journal-rig';

describe.skipIf(!up)('replaying or discarding a letter forgets an unfinished move of it (real potatoq workers)', () => {
  beforeAll(startWorkers);
  afterAll(cleanUp, 60_000);

  it('replayed here after an unfinished move, dead again: it moves as a new letter, without the old warning', async () => {
    const id = await letter();
    await unfinishedMove(id);
    expect(journalRow(id)).toMatchObject({ who: 'olga', until_ms: 0 });
    const replay = await service.replayDead('sq', [id]);
    expect(replay.succeeded.map((o) => [o.id, o.outcome])).toEqual([[id, 'ok']]);
    expect(journalRow(id)).toBeUndefined();
    // The source's worker runs it and it dies again there.
    await until('the letter to die again', async () => (await service.getDead('sq', id).catch(() => null)) !== null, 30_000, logs);
    const r = await move.moveDead('sq', 'pg', [id], { by: 'bob' });
    expect(r.failed).toEqual([]);
    expect(r.succeeded).toEqual([
      { id, outcome: 'ok', message: expect.stringMatching(/^enqueued on potatoq PG .*; removed from potatoq SQLite$/) },
    ]);
    await until('the target worker to run the new letter', () => runs(id) === 2, 30_000, logs);
    expect(journalRow(id)).toBeUndefined();
    await sleep(2000);
    expect(runs(id)).toBe(2);
  }, 120_000);

  it('discarded here: the record goes with the letter', async () => {
    const id = await letter();
    await unfinishedMove(id);
    expect(journalRow(id)).toMatchObject({ who: 'olga', until_ms: 0 });
    expect((await service.discardDead('sq', [id])).succeeded.map((o) => o.outcome)).toEqual(['ok']);
    expect(journalRow(id)).toBeUndefined();
  }, 90_000);

  it('without a replay or discard the record stays, and the next move still sends nothing', async () => {
    const id = await letter();
    await unfinishedMove(id);
    expect(journalRow(id)).toMatchObject({ who: 'olga', until_ms: 0 });
    const r = await move.moveDead('sq', 'pg', [id], { by: 'bob' });
    expect(r.failed).toEqual([
      { id, outcome: 'conflict', forcible: true, message: expect.stringContaining('may have delivered it to potatoq PG') },
    ]);
    await sleep(2000);
    expect(runs(id)).toBe(1);
    expect(journalRow(id)).toMatchObject({ who: 'olga' });
  }, 90_000);
});
