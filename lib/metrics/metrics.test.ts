import { describe, expect, it, vi } from 'vitest';
import type { BrokerOverview, Capabilities, SystemKind } from '@/lib/brokers/dto';
import { CAPABILITIES } from '@/lib/brokers/dto';
import { cached, limitQueues, queueSamples, type Snapshot } from './snapshot';
import { parseMetricsConfig } from './config';
import { renderSnapshot } from './render';

const caps = Object.fromEntries(CAPABILITIES.map((c) => [c, { on: true }])) as Capabilities;
const states = [
  {
    key: 'ready',
    label: 'Ready',
    time: { field: 'createdAt' as const, label: 'Enqueued' },
    order: { by: 'claim' as const, label: 'claim order' },
    owned: false,
  },
  {
    key: 'paused',
    label: 'Paused',
    time: { field: 'createdAt' as const, label: 'Enqueued' },
    order: { by: 'claim' as const, label: 'claim order' },
    owned: false,
  },
];
const names = (system: SystemKind, kind: string) => ({ kind, system, systemLabel: system, storeLabel: kind });
const at = Date.parse('2026-12-01T10:00:00Z');

function overview(over: Partial<BrokerOverview> = {}): BrokerOverview {
  return {
    id: 'shop',
    name: 'Shop',
    kind: 'sqlite',
    serverInfo: null,
    readOnly: false,
    capabilities: caps,
    model: { system: 'sdj', states, actions: {} as never },
    queues: [
      {
        name: 'emails',
        // `scheduled` and `running` are not declared by this model.
        counts: { ready: 12000, scheduled: 3, running: 2, paused: 5 },
        dead: 4,
        oldestWaitingAt: '2026-12-01T09:59:00Z',
        tasks: null,
        capped: { ready: { atLeast: 12000, estimate: null } },
      },
      { name: 'idle', counts: { ready: 0, scheduled: null, running: null }, dead: null, oldestWaitingAt: null, tasks: null },
      { name: 'unknown-age', counts: { ready: null, scheduled: 0, running: 0 }, dead: 0, oldestWaitingAt: null, tasks: null },
    ],
    totals: { counts: { ready: 12000, scheduled: 3, running: 2 }, dead: 4 },
    workers: { alive: 0, stale: 1 },
    readAt: new Date(at).toISOString(),
    ...over,
  };
}

describe('queueSamples', () => {
  it('counts the states the adapter declares plus dead letters, leaves unknown counts out and flags capped ones', () => {
    const [emails, idle] = queueSamples(overview(), at);
    // `scheduled` and `running` are not declared by this model: not exported, whatever the fields hold.
    expect(emails!.counts).toEqual([
      { state: 'ready', value: 12000, capped: true },
      { state: 'paused', value: 5, capped: false },
      { state: 'dead', value: 4, capped: false },
    ]);
    expect(idle!.counts).toEqual([{ state: 'ready', value: 0, capped: false }]);
  });
  it('gives the oldest waiting task’s age, 0 when nothing waits, and nothing when it cannot know', () => {
    const ages = queueSamples(overview(), at).map((q) => q.oldestAgeSeconds);
    expect(ages).toEqual([60, 0, null]);
  });
});

describe('renderSnapshot', () => {
  const snapshot: Snapshot = {
    takenAt: at,
    brokers: [
      { ...names('sdj', 'sqlite'), id: 'shop', name: 'Shop', ok: true, seconds: 0.25, error: null, overview: overview() },
      {
        ...names('potatoq', 'postgres'),
        id: 'down',
        name: 'Down "PG"',
        ok: false,
        seconds: 1.5,
        error: { code: 'BrokerUnavailable', message: 'connection refused' },
        overview: null,
      },
    ],
  };

  it('exposes per-queue state gauges, ages, workers and each broker’s read time and health', async () => {
    const text = await renderSnapshot(snapshot);
    expect(text).toContain('potatoq_console_queue_tasks{broker="shop",queue="emails",state="ready"} 12000');
    expect(text).toContain('potatoq_console_queue_tasks{broker="shop",queue="emails",state="paused"} 5');
    expect(text).toContain('potatoq_console_queue_tasks{broker="shop",queue="emails",state="dead"} 4');
    expect(text).toContain('potatoq_console_queue_tasks_capped{broker="shop",queue="emails",state="ready"} 1');
    expect(text).toContain('potatoq_console_queue_oldest_waiting_age_seconds{broker="shop",queue="emails"} 60');
    expect(text).not.toContain('queue="unknown-age"}');
    expect(text).toContain('potatoq_console_workers{broker="shop",status="alive"} 0');
    expect(text).toContain('potatoq_console_broker_up{broker="shop"} 1');
    expect(text).toContain('potatoq_console_broker_scrape_duration_seconds{broker="shop"} 0.25');
    expect(text).toContain('potatoq_console_broker_info{broker="shop",name="Shop",kind="sqlite",system="sdj"} 1');
    expect(text).toMatch(/^# TYPE potatoq_console_queue_tasks gauge$/m);
  });

  it('keeps the oldest age under its former name, oldest_ready, as a deprecated alias with the same series', async () => {
    const text = await renderSnapshot(snapshot);
    const series = (name: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith(`${name}{`))
        .map((l) => l.slice(name.length));
    const current = series('potatoq_console_queue_oldest_waiting_age_seconds');
    expect(current).toEqual(['{broker="shop",queue="emails"} 60', '{broker="shop",queue="idle"} 0']);
    expect(series('potatoq_console_queue_oldest_ready_age_seconds')).toEqual(current);
    expect(text).toMatch(/^# HELP potatoq_console_queue_oldest_ready_age_seconds Deprecated: .*oldest_waiting_age_seconds/m);
  });

  it('names the system of a broker that never answered, from its configuration', async () => {
    const text = await renderSnapshot(snapshot);
    expect(text).toContain('potatoq_console_broker_up{broker="down"} 0');
    expect(text).toContain('potatoq_console_broker_info{broker="down",name="Down \\"PG\\"",kind="postgres",system="potatoq"} 1');
  });

  it('leaves the workers series out where the system keeps no worker registry (never alive 0)', async () => {
    const qf = overview({ id: 'qf', workers: null, capabilities: { ...caps, workers: { on: false, why: 'no registry' } } });
    const text = await renderSnapshot({
      takenAt: at,
      brokers: [{ ...names('queueflow', 'queueflow'), id: 'qf', name: 'QF', ok: true, seconds: 0.1, error: null, overview: qf }],
    });
    expect(text).toContain('potatoq_console_queue_tasks{broker="qf",queue="emails",state="ready"} 12000');
    expect(text).not.toMatch(/^potatoq_console_workers\{/m);
  });

  it('exports failed workflow runs where the adapter declares workflows, and nothing where it does not or could not count', async () => {
    const qf = (failed: number | null, on = true) =>
      overview({
        id: 'qf',
        capabilities: { ...caps, workflows: on ? { on: true } : { on: false, why: 'none' } },
        workflows: { failed, recent: [] },
      });
    const sample = (id: string, o: ReturnType<typeof overview>) => ({
      ...names('queueflow', 'queueflow'),
      id,
      name: id,
      ok: true,
      seconds: 0.1,
      error: null,
      overview: { ...o, id },
    });
    const text = await renderSnapshot({ takenAt: at, brokers: [sample('a', qf(3)), sample('b', qf(null)), sample('c', qf(2, false))] });
    expect(text).toContain('potatoq_console_workflows_failed{broker="a"} 3');
    expect(text).not.toMatch(/^potatoq_console_workflows_failed\{broker="[bc]"\}/m);
  });

  it('exports a count the console did not finish with the capped marker, "at least 0" included', async () => {
    const o = overview({
      queues: [
        {
          name: 'emails',
          counts: { ready: 1, scheduled: 0, running: 0 },
          dead: 0,
          oldestWaitingAt: null,
          tasks: null,
          capped: { dead: { atLeast: 0, estimate: 150 } },
        },
      ],
    });
    const text = await renderSnapshot({
      takenAt: at,
      brokers: [{ ...names('sdj', 'sqlite'), id: 'shop', name: 'Shop', ok: true, seconds: 0.1, error: null, overview: o }],
    });
    expect(text).toContain('potatoq_console_queue_tasks{broker="shop",queue="emails",state="dead"} 0');
    expect(text).toContain('potatoq_console_queue_tasks_capped{broker="shop",queue="emails",state="dead"} 1');
    expect(text).not.toContain('potatoq_console_queue_tasks_capped{broker="shop",queue="emails",state="ready"}');
  });

  it('exports at most maxQueues queues per broker, the busiest, and sums the rest under queue="(other)"', async () => {
    const text = await renderSnapshot(snapshot, 1);
    expect(text).toContain('potatoq_console_queue_tasks{broker="shop",queue="emails",state="ready"} 12000');
    expect(text).not.toContain('queue="idle"');
    expect(text).toContain('potatoq_console_queue_tasks{broker="shop",queue="(other)",state="ready"} 0');
    expect(text).toContain('potatoq_console_queue_tasks{broker="shop",queue="(other)",state="dead"} 0');
    expect(text).toContain('potatoq_console_queues_omitted{broker="shop"} 2');
    expect((await renderSnapshot(snapshot, 500)).match(/potatoq_console_queues_omitted\{broker="shop"\} (\d+)/)?.[1]).toBe('0');
  });

  it('shows a broker that is down as up 0 with its read time, escaping its name, and no counts', async () => {
    const text = await renderSnapshot(snapshot);
    expect(text).toContain('potatoq_console_broker_up{broker="down"} 0');
    expect(text).toContain('potatoq_console_broker_scrape_duration_seconds{broker="down"} 1.5');
    expect(text).toContain('name="Down \\"PG\\""');
    expect(text).not.toMatch(/potatoq_console_queue_tasks\{broker="down"/);
    expect(text).not.toContain('connection refused');
  });
});

describe('limitQueues', () => {
  const sample = (queue: string, ready: number, capped = false, age: number | null = null) => ({
    broker: 'b',
    queue,
    counts: [{ state: 'ready', value: ready, capped }],
    oldestAgeSeconds: age,
  });
  it('keeps everything under the cap, else the most work first and one lower-bound aggregate of the rest', () => {
    const all = [sample('a', 1), sample('b', 9), sample('c', 5, true, 30), sample('d', 5, false, 90)];
    expect(limitQueues(all, 4, '(other)')).toEqual({ kept: all, omitted: 0 });
    const { kept, omitted } = limitQueues(all, 2, '(other)');
    expect(omitted).toBe(2);
    expect(kept.map((q) => q.queue)).toEqual(['b', 'c', '(other)']);
    expect(kept[2]).toEqual({ broker: 'b', queue: '(other)', counts: [{ state: 'ready', value: 6, capped: false }], oldestAgeSeconds: 90 });
    expect(limitQueues(all, 1, '(other)').kept[1]?.counts).toEqual([{ state: 'ready', value: 11, capped: true }]);
  });
  it('reads POTATOQ_CONSOLE_METRICS_MAX_QUEUES (default 500); a bad value names the variable', () => {
    expect(parseMetricsConfig({})).toEqual({ maxQueues: 500, budgetMs: 4000 });
    expect(parseMetricsConfig({ POTATOQ_CONSOLE_METRICS_MAX_QUEUES: '20' })).toEqual({ maxQueues: 20, budgetMs: 4000 });
    expect(parseMetricsConfig({ POTATOQ_CONSOLE_METRICS_BUDGET_MS: '2500' }).budgetMs).toBe(2500);
    for (const bad of ['0', '99', '60001', '5s', '-1', '1.5'])
      expect(() => parseMetricsConfig({ POTATOQ_CONSOLE_METRICS_BUDGET_MS: bad })).toThrow(
        /^POTATOQ_CONSOLE_METRICS_BUDGET_MS: must be a whole number from 100 to 60000/,
      );
    for (const bad of ['0', '1.5', 'many', '100001'])
      expect(() => parseMetricsConfig({ POTATOQ_CONSOLE_METRICS_MAX_QUEUES: bad })).toThrow(/^POTATOQ_CONSOLE_METRICS_MAX_QUEUES: must be/);
  });
});

describe('cached', () => {
  it('shares one load among concurrent callers and reuses it until the interval has passed', async () => {
    let now = 0;
    let release: (v: number) => void = () => {};
    const load = vi.fn(() => new Promise<number>((r) => (release = r)));
    const get = cached(load, 15_000, () => now);
    const a = get();
    const b = get();
    release(1);
    await expect(Promise.all([a, b])).resolves.toEqual([1, 1]);
    now = 14_999;
    await expect(get()).resolves.toBe(1);
    expect(load).toHaveBeenCalledTimes(1);
    now = 15_000;
    const c = get();
    release(2);
    await expect(c).resolves.toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
  });
  it('does not keep a failed load', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValueOnce(7);
    const get = cached(load, 15_000, () => 0);
    await expect(get()).rejects.toThrow('boom');
    await expect(get()).resolves.toBe(7);
  });
});
