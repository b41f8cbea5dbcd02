import { describe, expect, it } from 'vitest';
import { fingerprintError } from './fingerprint';
import { DeadGrouper, newestWindowNote } from './groups';

const fp = (type: string, message: string) =>
  fingerprintError({ type, message, frames: [{ file: '/srv/shop/billing.py', func: 'charge' }] });

describe('DeadGrouper', () => {
  it('counts letters per fingerprint with their tasks, queues, first/last seen and the newest as example', () => {
    const g = new DeadGrouper();
    g.add({
      id: 'a',
      task: 'shop.charge',
      queue: 'billing',
      diedAtMs: 1_000,
      summary: 'CardDeclined: customer 1',
      fp: fp('CardDeclined', 'customer 1'),
    });
    g.add({
      id: 'b',
      task: 'shop.charge',
      queue: 'billing-eu',
      diedAtMs: 3_000,
      summary: 'CardDeclined: customer 2',
      fp: fp('CardDeclined', 'customer 2'),
    });
    g.add({
      id: 'c',
      task: 'shop.refund',
      queue: 'billing',
      diedAtMs: 2_000,
      summary: 'CardDeclined: customer 3',
      fp: fp('CardDeclined', 'customer 3'),
    });
    g.add({
      id: 'd',
      task: 'shop.export',
      queue: 'exports',
      diedAtMs: null,
      summary: 'OSError: disk full',
      fp: fp('OSError', 'disk full'),
    });
    const [big, small] = g.result();
    expect(big).toMatchObject({
      pattern: 'CardDeclined: customer <n>',
      frame: 'shop/billing.py in charge',
      count: 3,
      tasks: ['shop.charge', 'shop.refund'],
      queues: ['billing', 'billing-eu'],
      oldestAt: new Date(1_000).toISOString(),
      newestAt: new Date(3_000).toISOString(),
      example: { id: 'b', summary: 'CardDeclined: customer 2' },
    });
    expect(small).toMatchObject({ count: 1, newestAt: null, oldestAt: null, example: { id: 'd' } });
    expect(big!.fingerprint).not.toBe(small!.fingerprint);
  });

  it('orders equal counts by pattern', () => {
    const g = new DeadGrouper();
    g.add({ id: '1', task: 't', queue: 'q', diedAtMs: 1, summary: '', fp: fp('ZError', 'z') });
    g.add({ id: '2', task: 't', queue: 'q', diedAtMs: 1, summary: '', fp: fp('AError', 'a') });
    expect(g.result().map((x) => x.pattern)).toEqual(['AError: a', 'ZError: z']);
  });

  it('answers the groups with their scope: grouped is the sum of the counts, a note only when letters were left out', () => {
    const g = new DeadGrouper();
    g.add({ id: '1', task: 't', queue: 'q', diedAtMs: 1, summary: '', fp: fp('AError', 'a'), count: 5 });
    g.add({ id: '2', task: 't', queue: 'q', diedAtMs: 2, summary: '', fp: fp('BError', 'b') });
    expect(g.answer().scope).toEqual({ grouped: 6, complete: true });
    expect(g.answer(null).scope).toEqual({ grouped: 6, complete: true });
    expect(g.answer('only some').scope).toEqual({ grouped: 6, complete: false, note: 'only some' });
    expect(g.answer('only some').groups.map((x) => x.count)).toEqual([5, 1]);
    expect(new DeadGrouper().answer()).toEqual({ groups: [], scope: { grouped: 0, complete: true } });
  });
});

describe('newestWindowNote', () => {
  it('says how many of how many were grouped, and what the rest are', () => {
    expect(newestWindowNote({ window: 10_000, total: { n: 100_000, how: 'exact' }, why: 'the searchWindow option' })).toBe(
      "Grouped the newest 10,000 of 100,000 dead letters (the searchWindow option): the 90,000 older ones are in no group's count.",
    );
    expect(newestWindowNote({ window: 5, total: { n: 6, how: 'exact' } })).toBe(
      "Grouped the newest 5 of 6 dead letters: the 1 older one is in no group's count.",
    );
    expect(newestWindowNote({ window: 10, total: { n: 100, how: 'more than' } })).toBe(
      "Grouped the newest 10 of more than 100 dead letters: the older ones are in no group's count.",
    );
    expect(newestWindowNote({ window: 10, total: { n: 4_000, how: 'about' }, why: 'w' })).toBe(
      "Grouped the newest 10 of about 4,000 dead letters (w): the older ones are in no group's count.",
    );
  });

  it('says there are more without a total, or with an estimate no larger than the window', () => {
    const more = "Grouped the newest 2,000 dead letters (w); there are more, and the older ones are in no group's count.";
    expect(newestWindowNote({ window: 2_000, why: 'w' })).toBe(more);
    expect(newestWindowNote({ window: 2_000, total: { n: 1_500, how: 'about' }, why: 'w' })).toBe(more);
  });
});

describe('DeadGrouper with a time range', () => {
  it('groups only letters that died in it (since inclusive, until exclusive; no died time: out)', () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const g = new DeadGrouper({ since: iso(2_000), until: iso(4_000) });
    const letter = (id: string, diedAtMs: number | null) => ({ id, task: 't', queue: 'q', diedAtMs, summary: 'E: x', fp: fp('E', 'x') });
    expect(
      [letter('a', 1_999), letter('b', 2_000), letter('c', 3_999), letter('d', 4_000), letter('e', null)].map((l) => g.add(l)),
    ).toEqual([false, true, true, false, false]);
    const { groups, scope } = g.answer();
    expect(scope).toEqual({ grouped: 2, complete: true });
    expect(groups[0]).toMatchObject({ count: 2, example: { id: 'c' }, oldestAt: iso(2_000), newestAt: iso(3_999) });
  });
});
