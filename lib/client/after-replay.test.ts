import { describe, expect, it } from 'vitest';
import { CAPABILITIES, type Capabilities } from '@/lib/brokers/model';
import { afterReplay } from './after-replay';

const caps = (off: Partial<Record<keyof Capabilities, string>> = {}): Capabilities =>
  Object.fromEntries(
    ([...CAPABILITIES, 'list:ready', 'list:running'] as Array<keyof Capabilities>).map((k) => [
      k,
      off[k] ? { on: false, why: off[k] } : { on: true },
    ]),
  ) as Capabilities;

describe('where an edit-and-replay goes next', () => {
  it("goes to the new task's page where the broker can show waiting and running tasks", () => {
    expect(afterReplay('b 1', caps(), 'id/2', 'sent')).toEqual({ href: '/brokers/b%201/jobs/id%2F2', notice: null });
  });

  it('goes to the dead letters with a notice naming the new id where it cannot', () => {
    const why = "can't list queued messages without taking them";
    const r = afterReplay('rmq', caps({ 'list:ready': why, 'list:running': why }), 'n-1', 'published to emails');
    expect(r.href).toBe('/brokers/rmq/dead');
    expect(r.notice).toEqual({
      tone: 'success',
      title: 'Replayed as n-1',
      body: `published to emails. Its task page can't be shown here (${why}).`,
    });
  });
});
