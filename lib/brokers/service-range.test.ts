import { describe, expect, it, vi } from 'vitest';
import { ZDeadListQuery, ZTaskListQuery, type Capabilities } from './schema';
import { checkRange } from './service-range';
import type { BrokerAdapter } from './types';

const adapterWith = (deadRange: Capabilities['deadRange']) => {
  const capabilities = vi.fn(async () => ({ deadRange }) as Capabilities);
  return { a: { model: {}, capabilities } as unknown as BrokerAdapter, capabilities };
};

describe('a dead-letter read with a time range', () => {
  it('asks nothing of the broker without a range', async () => {
    const { a, capabilities } = adapterWith({ on: false, why: 'no' });
    await checkRange(a, ZDeadListQuery.parse({ queue: 'q' }), 'deadRange');
    expect(capabilities).not.toHaveBeenCalled();
  });

  it('refuses, in the adapter’s words, where the system cannot filter by died time', async () => {
    const { a } = adapterWith({ on: false, why: 'RabbitMQ 3.x cannot browse its DLQs' });
    await expect(checkRange(a, ZDeadListQuery.parse({ since: '1h' }), 'deadRange')).rejects.toMatchObject({
      code: 'Unsupported',
      message: 'time range: RabbitMQ 3.x cannot browse its DLQs',
    });
  });

  it('names until when the range is empty, before asking the broker', async () => {
    const { a, capabilities } = adapterWith({ on: true });
    await expect(checkRange(a, ZDeadListQuery.parse({ since: '1h', until: '2h' }), 'deadRange')).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { until: 'until must be later than since' },
    });
    expect(capabilities).not.toHaveBeenCalled();
    await checkRange(a, ZDeadListQuery.parse({ since: '2h', until: '1h' }), 'deadRange');
  });
});

describe('a task list read with a time range', () => {
  it('parses since/until on a task list to instants and checks the taskRange capability', async () => {
    const q = ZTaskListQuery.parse({ state: 'ready', since: '2026-12-04T20:00:00+01:00', until: '30m' });
    expect(q.since).toBe('2026-12-04T19:00:00.000Z');
    expect(Date.parse(q.until!)).toBeGreaterThan(Date.now() - 31 * 60_000);
    const capabilities = vi.fn(async () => ({ taskRange: { on: false, why: 'no enqueue time in the messages' } }) as Capabilities);
    const a = { model: {}, capabilities } as unknown as BrokerAdapter;
    await expect(checkRange(a, q, 'taskRange')).rejects.toMatchObject({
      code: 'Unsupported',
      message: 'time range: no enqueue time in the messages',
    });
  });

  it('names the field of a bound that is no time', () => {
    const r = ZTaskListQuery.safeParse({ since: 'yesterday' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['since']);
  });
});
