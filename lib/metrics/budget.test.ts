import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrokerOverview } from '@/lib/brokers/dto';

// Brokers whose reads the test settles by hand: `hold` makes a broker's next reads wait.
const calls: Record<string, number> = {};
const held = new Map<string, Array<(v: unknown) => void>>();
const hold = (id: string) => held.set(id, []);
const release = (id: string, answer: unknown) => {
  const waiting = held.get(id) ?? [];
  held.delete(id);
  for (const r of waiting) r(answer);
};
const answer = (id: string, ready: number) => ({
  id,
  capabilities: {},
  workers: null,
  queues: [{ name: 'q', counts: { ready }, dead: 0, oldestWaitingAt: null }],
  totals: { counts: { ready }, dead: 0 },
  readMs: 1,
});

vi.mock('@/lib/brokers/service', () => ({
  brokerList: () => ['good', 'hung'].map((id) => ({ id, name: id, kind: 'redis' })),
  overview: (id: string) => {
    calls[id] = (calls[id] ?? 0) + 1;
    const waiting = held.get(id);
    if (!waiting) return Promise.resolve(answer(id, calls[id]));
    return new Promise((resolve, reject) => waiting.push((v) => (v instanceof Error ? reject(v) : resolve(v as BrokerOverview))));
  },
  toConsoleError: (e: unknown) => ({ code: 'BrokerTimeout', message: e instanceof Error ? e.message : String(e) }),
}));
const { takeSnapshot } = await import('./snapshot');
const { resetBrokerReads } = await import('./broker-reads');
const { countErrors, renderSnapshot, scrapeErrorsText } = await import('./render');

const take = () => takeSnapshot({ spreadMs: 0, budgetMs: 1000 });
const of = (s: Awaited<ReturnType<typeof take>>, id: string) => s.brokers.find((b) => b.id === id)!;

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-12-05T00:00:00Z') });
  resetBrokerReads();
  for (const k of Object.keys(calls)) delete calls[k];
  held.clear();
});
afterEach(() => vi.useRealTimers());

describe('a snapshot waits for the brokers at most its budget', () => {
  it('answers at the budget with the good broker read and a hung one never read marked as waiting', async () => {
    hold('hung');
    let done = false;
    const pending = take().then((s) => ((done = true), s));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const s = await pending;
    expect(of(s, 'good')).toMatchObject({ ok: true, stale: false });
    expect(of(s, 'hung')).toMatchObject({ ok: false, stale: true, unread: true, overview: null, error: { code: 'BrokerTimeout' } });
    expect(of(s, 'hung').error?.message).toMatch(/within the metrics budget of 1s; the read goes on/);
  });

  it('keeps one read of a hung broker in flight however many snapshots ask, and its answer lands in the next', async () => {
    hold('hung');
    for (let i = 0; i < 3; i++) {
      const p = take();
      await vi.advanceTimersByTimeAsync(1000);
      await p;
    }
    expect(calls).toEqual({ good: 3, hung: 1 });
    release('hung', answer('hung', 7));
    await vi.advanceTimersByTimeAsync(0);
    const p = take();
    await vi.advanceTimersByTimeAsync(1000);
    const next = of(await p, 'hung');
    // The landed read is the last known sample while a new one is asked for: it answers at once here.
    expect(next).toMatchObject({ ok: true, stale: false });
    expect(calls.hung).toBe(2);
  });

  it('reports the last finished read, stale with its age, when a broker that answered hangs', async () => {
    const first = take();
    await vi.advanceTimersByTimeAsync(0);
    expect(of(await first, 'hung')).toMatchObject({ ok: true, stale: false });
    await vi.advanceTimersByTimeAsync(14_000);
    hold('hung');
    const second = take();
    await vi.advanceTimersByTimeAsync(1000);
    const s = await second;
    expect(of(s, 'hung')).toMatchObject({ ok: true, stale: true, overview: { queues: [{ counts: { ready: 1 } }] } });
    const text = await renderSnapshot(s);
    expect(text).toContain('potatoq_console_broker_up{broker="hung"} 1');
    expect(text).toContain('potatoq_console_broker_stale{broker="hung"} 1');
    expect(text).toContain('potatoq_console_broker_read_age_seconds{broker="hung"} 14');
    expect(text).toContain('potatoq_console_broker_stale{broker="good"} 0');
    expect(text).toContain('potatoq_console_broker_read_age_seconds{broker="good"} 0');
    expect(text).toMatch(/potatoq_console_queue_tasks\{broker="hung",queue="q",state="ready"\} 1/);
  });

  it('reports a read that failed after the budget as the broker down in the next snapshot', async () => {
    hold('hung');
    const first = take();
    await vi.advanceTimersByTimeAsync(1000);
    await first;
    release('hung', new Error('overview took longer than 10s'));
    hold('hung');
    await vi.advanceTimersByTimeAsync(0);
    const second = take();
    await vi.advanceTimersByTimeAsync(1000);
    const hung = of(await second, 'hung');
    expect(hung).toMatchObject({ ok: false, stale: true, error: { code: 'BrokerTimeout', message: 'overview took longer than 10s' } });
    expect(hung.unread).toBeUndefined();
    expect(calls.hung).toBe(2);
  });
});

describe('the failed-read counter', () => {
  it('counts each failed read once, however many stale snapshots repeat it, and not a read still out', async () => {
    const failed = (readAt: number, extra = {}) => ({
      id: 'hung',
      name: 'hung',
      kind: 'redis',
      system: 'potatoq' as const,
      systemLabel: 'potatoq',
      storeLabel: 'Redis',
      ok: false,
      seconds: 5,
      error: { code: 'BrokerTimeout', message: 'slow' },
      overview: null,
      readAt,
      ...extra,
    });
    const count = async () => /broker="hung",code="BrokerTimeout"\} (\d+)/.exec(await scrapeErrorsText())?.[1] ?? '0';
    const before = Number(await count());
    countErrors({ takenAt: 0, brokers: [failed(5, { stale: true, unread: true })] });
    expect(Number(await count())).toBe(before);
    countErrors({ takenAt: 0, brokers: [failed(5)] });
    countErrors({ takenAt: 0, brokers: [failed(5, { stale: true })] });
    countErrors({ takenAt: 0, brokers: [failed(5, { stale: true })] });
    expect(Number(await count())).toBe(before + 1);
    countErrors({ takenAt: 0, brokers: [failed(9, { stale: true })] });
    expect(Number(await count())).toBe(before + 2);
  });
});
