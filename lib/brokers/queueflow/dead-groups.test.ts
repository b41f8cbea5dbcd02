import { describe, expect, it } from 'vitest';
import type { QfClient } from './client';
import { DEAD_WINDOW, deadGroups } from './dead';

// The groups' scope over QueueFlow's dead-letter list, on a client that answers like the server
// (newest first, keyset cursor, `include_total` on request): past DEAD_WINDOW letters the
// answer says how many of how many it grouped, asking for the count only then.

function fakeServer(n: number, withTotal = true, message = (i: number) => `ValueError: order ${i} late`) {
  const calls: Array<Record<string, unknown>> = [];
  const letter = (i: number) => ({
    id: n - i,
    job_id: `j${n - i}`,
    queue_name: 'mail',
    task_name: 'send',
    reason: 'max_attempts_exceeded',
    error_message: message(i),
    created_at: new Date(1_800_000_000_000 - i * 1000).toISOString(),
  });
  const client: QfClient = {
    where: 'fake:1',
    post: () => Promise.reject(new Error('no writes here')),
    get: <T>(_route: string, query: Record<string, unknown> = {}): Promise<T> => {
      calls.push(query);
      const start = Number(query.cursor ?? 0);
      const limit = Number(query.limit ?? 50);
      const rows = Array.from({ length: Math.max(0, Math.min(limit, n - start)) }, (_, k) => letter(start + k));
      const more = start + rows.length < n;
      return Promise.resolve({
        dead_letters: rows,
        has_more: more,
        next_cursor: more ? String(start + rows.length) : null,
        ...(query.include_total && withTotal ? { total: n } : {}),
      } as T);
    },
  };
  return { client, calls };
}

describe('QueueFlow dead-letter groups: what they cover', () => {
  it('groups every letter of a list that fits, without asking for a count', async () => {
    const { client, calls } = fakeServer(150);
    const { groups, scope } = await deadGroups(client, { queue: 'mail' });
    expect(groups.map((g) => g.count)).toEqual([150]);
    expect(scope).toEqual({ grouped: 150, complete: true });
    expect(calls.some((c) => c.include_total)).toBe(false);
  });

  it('puts letters whose order ids have a letter prefix (ord_4…) into one group', async () => {
    const { client } = fakeServer(300, true, (i) => `ValueError: order ord_${412_345 + i * 7_919} declined after 1.${i % 10}s`);
    const { groups } = await deadGroups(client, { queue: 'mail' });
    expect(groups.map((g) => [g.pattern, g.count])).toEqual([['ValueError: order <id> declined after <dur>', 300]]);
  });

  it('groups the newest DEAD_WINDOW of a longer list and says how many of how many', async () => {
    const { client, calls } = fakeServer(DEAD_WINDOW + 345);
    const { scope } = await deadGroups(client, { queue: 'mail' });
    expect(scope).toEqual({
      grouped: 2000,
      complete: false,
      note:
        "Grouped the newest 2,000 of 2,345 dead letters (the console reads at most 2,000 of QueueFlow's dead letters for the groups): " +
        "the 345 older ones are in no group's count.",
    });
    expect(calls.filter((c) => c.include_total)).toEqual([{ queue: 'mail', limit: 1, include_total: true }]);
  });

  it('says there are more when the server gives no count', async () => {
    const { client } = fakeServer(DEAD_WINDOW + 1, false);
    expect((await deadGroups(client, {})).scope.note).toBe(
      "Grouped the newest 2,000 dead letters (the console reads at most 2,000 of QueueFlow's dead letters for the groups); " +
        "there are more, and the older ones are in no group's count.",
    );
  });
});
