import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateDbForTests, type SqlRunner } from '@/lib/state/sql';
import { createSqlMovesLedger, movesOf, RETENTION_DAYS, type MoveRecord } from './moves-ledger';

// The moves ledger on the real table (SQLite in memory): what either side's task page and the
// migration view read after a move's journal row is gone.

let db: SqlRunner;
beforeEach(async () => {
  db = await openStateDbForTests(':memory:');
});
afterEach(async () => db.close());

const rec = (over: Partial<MoveRecord> = {}): MoveRecord => ({
  source: 'celery',
  sourceId: 'L1',
  target: 'qf',
  targetId: 'J1',
  outcome: 'ok',
  task: 'billing.charge',
  at: new Date().toISOString(),
  who: 'olga',
  auditId: 'a1',
  message: 'enqueued',
  ...over,
});

describe('moves ledger', () => {
  it('answers where a letter went and where a job came from', async () => {
    const l = createSqlMovesLedger(db);
    await l.record([rec()]);
    expect(await l.of('celery', 'L1')).toEqual({ to: [rec({ at: expect.any(String) })], from: [] });
    expect((await l.of('qf', 'J1')).from).toEqual([expect.objectContaining({ source: 'celery', sourceId: 'L1' })]);
    expect(await l.of('qf', 'L1')).toEqual({ to: [], from: [] });
  });

  it('keeps one row per letter and job: a repeat ("already there") updates it', async () => {
    const l = createSqlMovesLedger(db);
    await l.record([rec()]);
    await l.record([rec({ outcome: 'already', task: null, who: 'ben' })]);
    const { to } = await l.of('celery', 'L1');
    expect(to).toEqual([expect.objectContaining({ outcome: 'already', who: 'ben', task: 'billing.charge' })]);
  });

  it('lists a pair newest first, capped, and prunes rows older than its retention', async () => {
    const now = Date.parse('2026-12-04T12:00:00Z');
    const l = createSqlMovesLedger(db, () => now);
    const old = new Date(now - (RETENTION_DAYS + 1) * 86_400_000).toISOString();
    await l.record([rec({ sourceId: 'old', at: old })]);
    await l.record([1, 2, 3].map((i) => rec({ sourceId: `L${i}`, targetId: `J${i}`, at: new Date(now - i * 1000).toISOString() })));
    const p = await l.pair('celery', 'qf', 2);
    expect(p).toEqual({ moves: [expect.objectContaining({ sourceId: 'L1' }), expect.objectContaining({ sourceId: 'L2' })], capped: true });
    expect((await l.pair('celery', 'qf', 10)).moves.map((m) => m.sourceId)).toEqual(['L1', 'L2', 'L3']);
  });

  it("writes a move's finished ids only, the target's id where the target gave one", () => {
    const rows = movesOf(
      { source: 's', target: 't' },
      [
        { id: 'a', outcome: 'ok', message: 'm', taskId: 'J' },
        { id: 'b', outcome: 'already', message: 'm' },
        { id: 'c', outcome: 'error', message: 'm' },
      ],
      { who: 'olga', auditId: null, tasks: new Map([['a', 'T']]) },
    );
    expect(rows.map((r) => [r.sourceId, r.targetId, r.outcome, r.task])).toEqual([
      ['a', 'J', 'ok', 'T'],
      ['b', 'b', 'already', null],
    ]);
  });
});
