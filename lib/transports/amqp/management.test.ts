import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
const { Management } = await import('./management');

afterEach(() => vi.unstubAllGlobals());

/** A management API stand-in answering the two reads `queues` makes, recording what was asked. */
function stubApi(listing: unknown, consumers: unknown): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    const body = url.includes('/api/consumers/') ? consumers : listing;
    return new Response(JSON.stringify(body), { status: 200 });
  });
  return asked;
}

describe('Management.queues', () => {
  const m = new Management({ base: 'http://mgmt', authorization: 'Basic x' }, 1000);

  it('reads one listing without statistics and counts consumers from the consumer list', async () => {
    const asked = stubApi(
      [
        { name: 'a', type: 'quorum', arguments: { 'x-queue-type': 'quorum' }, messages_ready: 3, messages_unacknowledged: 1, messages: 4 },
        { name: 'a.dlq', type: 'quorum', arguments: {}, messages_ready: 2, messages_unacknowledged: 0, messages: 2 },
        { type: 'classic' },
      ],
      [{ queue: { name: 'a' } }, { queue: { name: 'a' } }, { queue: { name: 'elsewhere' } }, { queue: {} }],
    );
    const qs = await m.queues('/');
    expect(asked).toHaveLength(2);
    expect(asked.find((u) => u.includes('/api/queues/%2F?'))).toContain('disable_stats=true&enable_queue_totals=true');
    expect(asked.some((u) => u.includes('page='))).toBe(false);
    expect(qs).toEqual([
      { name: 'a', type: 'quorum', arguments: { 'x-queue-type': 'quorum' }, ready: 3, unacked: 1, messages: 4, consumers: 2 },
      { name: 'a.dlq', type: 'quorum', arguments: {}, ready: 2, unacked: 0, messages: 2, consumers: 0 },
    ]);
  });

  it('keeps a count it was not given as unknown, and survives answers that are not lists', async () => {
    stubApi([{ name: 'b', messages: 'x' }], { error: 'nope' });
    expect(await m.queues('prod')).toEqual([
      { name: 'b', type: null, arguments: {}, ready: null, unacked: null, messages: null, consumers: 0 },
    ]);
    stubApi({ items: [] }, []);
    expect(await m.queues('prod')).toEqual([]);
  });
});
