import { describe, expect, it } from 'vitest';
import { migrationRows, type SideTally } from './migration';

// The migration view's rows from each side's bounded counts (lib/brokers/migration.ts).

const side = (over: Partial<SideTally> = {}): SideTally => ({
  waiting: new Map(),
  dead: new Map(),
  noHandler: new Map(),
  waitingCapped: false,
  deadCapped: false,
  ...over,
});

describe('migration rows', () => {
  it("counts a source name beside its mapped name's counts on the target", () => {
    const source = side({ waiting: new Map([['billing.charge', 3]]), dead: new Map([['billing.charge', 2]]) });
    const target = side({ waiting: new Map([['charge', 1]]), dead: new Map([['charge', 4]]), noHandler: new Map([['charge', 4]]) });
    const rows = migrationRows(
      source,
      target,
      [{ task: 'billing.charge', targetTask: 'charge' }],
      [
        { task: 'billing.charge', outcome: 'ok' },
        { task: 'billing.charge', outcome: 'already' },
        { task: 'billing.charge', outcome: 'ok' },
      ],
    );
    expect(rows).toEqual([
      {
        task: 'billing.charge',
        targetTask: 'charge',
        mapped: true,
        source: { waiting: { n: 3, atLeast: false }, dead: { n: 2, atLeast: false } },
        target: { waiting: { n: 1, atLeast: false }, dead: { n: 4, atLeast: false }, noHandler: { n: 4, atLeast: false } },
        moved: { ok: 2, already: 1 },
      },
    ]);
  });

  it('an unmapped name is compared with the same name, and a name only on the target gets its own row', () => {
    const rows = migrationRows(
      side({ dead: new Map([['a', 1]]) }),
      side({
        dead: new Map([
          ['a', 2],
          ['z', 5],
        ]),
      }),
      [],
      [],
    );
    expect(rows.map((r) => [r.task, r.targetTask, r.mapped, r.source.dead.n, r.target.dead.n])).toEqual([
      ['a', 'a', false, 1, 2],
      [null, 'z', false, 0, 5],
    ]);
  });

  it('says "at least" where a read stopped at its cap, and unknown (null) where a side could not be read', () => {
    const rows = migrationRows(
      side({ waiting: new Map([['a', 2000]]), waitingCapped: true, dead: null }),
      side({ noHandler: null, deadCapped: true, dead: new Map([['b', 1]]) }),
      [{ task: 'a', targetTask: null }],
      [],
    );
    expect(rows[0]).toMatchObject({
      task: 'a',
      targetTask: 'a',
      mapped: true,
      source: { waiting: { n: 2000, atLeast: true }, dead: { n: null, atLeast: false } },
      target: { dead: { n: 0, atLeast: true }, noHandler: null },
    });
    // A target-only name: the unreadable source's count stays unknown, never zero.
    expect(rows[1]).toMatchObject({ task: null, targetTask: 'b', source: { dead: { n: null }, waiting: { n: 0 } } });
  });

  it('lists mapped and moved names even when nothing of them is left on either side', () => {
    const rows = migrationRows(
      side(),
      side(),
      [{ task: 'm', targetTask: 'x' }],
      [
        { task: 'gone', outcome: 'ok' },
        { task: null, outcome: 'ok' },
      ],
    );
    expect(rows.map((r) => [r.task, r.moved])).toEqual([
      ['gone', { ok: 1, already: 0 }],
      ['m', { ok: 0, already: 0 }],
    ]);
  });
});
