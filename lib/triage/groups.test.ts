import { describe, expect, it } from 'vitest';
import { fingerprintError } from './fingerprint';
import { DeadGrouper } from './groups';

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
});
