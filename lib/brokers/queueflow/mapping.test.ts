import { describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZEnqueueRequest } from '@/lib/brokers/schema';
import { buildCreate, previewCreate } from './enqueue';
import { collectRows } from './pages';
import { cursorAfter, micros } from './wire';
import { replayedAs } from './writes';

const req = (r: Record<string, unknown>) => ZEnqueueRequest.parse({ task: 't', ...r });
const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return isConsoleError(e) ? Object.keys(e.fields ?? {}) : ['not a ConsoleError'];
  }
  return [];
};

describe("the console's enqueue request as QueueFlow's create", () => {
  it('puts the payload in the body, queue, priority and retry settings into config, the key into a header', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    const c = buildCreate(
      req({
        queue: 'mail',
        fields: {
          payload: '{"to": "a"}',
          priority: '3',
          run_at: '2026-12-01T01:01:00+01:00',
          max_retries: '5',
          idempotency_key: 'k1',
          jitter_factor: '0.5',
        },
      }),
      now,
    );
    expect(c).toEqual({
      body: {
        task_name: 't',
        payload: { to: 'a' },
        config: { queue: 'mail', priority: 3, max_retries: 5, jitter_factor: 0.5 },
        run_at: '2026-12-01T00:01:00.000Z',
      },
      idempotencyKey: 'k1',
      scheduled: true,
    });
    // Untouched form inputs are "not given": QueueFlow's defaults apply.
    expect(buildCreate(req({ fields: { payload: '', run_at: '', max_retries: '', idempotency_key: '' } }), now)).toEqual({
      body: { task_name: 't', payload: {}, config: { queue: 'default' } },
      idempotencyKey: null,
      scheduled: false,
    });
  });

  it.each([
    ['payload', '[1]'],
    ['payload', 'nope'],
    ['run_at', '2030-01-01T00:00:00'],
    ['max_retries', '1.5'],
    ['timeout', '0'],
    ['retry_backoff', 'never'],
    ['jitter_factor', '-1'],
    ['args', '[]'],
  ])('refuses bad %s (%s) under its key', (field, value) => {
    expect(fieldsOf(() => buildCreate(req({ fields: { [field]: value } })))).toEqual([field]);
  });
});

describe("the enqueue preview of QueueFlow's create", () => {
  it('shows the Idempotency-Key header it will send, and none without a key', () => {
    const p = previewCreate('qf', req({ queue: 'mail', fields: { payload: '{"to": "a"}', idempotency_key: 'order-17' } }));
    expect(p.headers).toEqual([{ name: 'Idempotency-Key', value: 'order-17' }]);
    expect(JSON.parse(p.payload)).toEqual({ task_name: 't', payload: { to: 'a' }, config: { queue: 'mail' } });
    expect(previewCreate('qf', req({ queue: 'mail', fields: {} })).headers).toBeUndefined();
  });
});

describe("QueueFlow's keyset cursors", () => {
  it('reads its microsecond timestamps as the cursor has them', () => {
    expect(micros('2026-12-01T12:48:15.410603Z')).toBe(1796129295410603n);
    expect(micros('2030-01-01T00:00:00Z')).toBe(1893456000000000n);
    expect(cursorAfter('2026-12-01T12:48:15.4106Z', 7)).toBe('1796129295410600:7');
    expect(micros('yesterday')).toBeNull();
  });

  it('ends a filtered page at the row it stopped on, so the next page neither skips nor repeats', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => i);
    const fetchPage = async (cursor: string | undefined, limit: number) => {
      const start = cursor ? Number(cursor) + 1 : 0;
      const page = rows.slice(start, start + limit);
      return { rows: page, hasMore: start + limit < rows.length, next: start + limit < rows.length ? String(page.at(-1)) : null };
    };
    const keep = (r: number) => r % 7 === 0;
    const got: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await collectRows(fetchPage, (r) => String(r), 5, cursor, { keep, window: 1000 });
      got.push(...page.rows);
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(got).toEqual(rows.filter(keep));
    const windowed = await collectRows(fetchPage, (r) => String(r), 50, undefined, { keep, window: 30 });
    expect([windowed.rows, windowed.next, windowed.searchedNewest]).toEqual([[0, 7, 14, 21, 28], '29', 30]);
  });
});

describe("QueueFlow's 409 on a second replay", () => {
  it('names the earlier replay job', () => {
    expect(replayedAs('conflict: dead letter 1 was already replayed as job 0b5e1f3c-8c1e-4a4e-9d7f-2a1c3e5b7d9f')).toBe(
      '0b5e1f3c-8c1e-4a4e-9d7f-2a1c3e5b7d9f',
    );
    expect(replayedAs('conflict: dead letter 1 was already replayed')).toBeNull();
  });
});
