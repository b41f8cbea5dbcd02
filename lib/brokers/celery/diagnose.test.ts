import { describe, expect, it } from 'vitest';
import type { QueueStats } from '@/lib/brokers/dto';
import type { CeleryFacts, HeldFact, LiveWorker } from './diagnose';
import { diagnoseCelery } from './diagnose-run';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const queue = (name: string, ready: number, extra: Partial<QueueStats> = {}): QueueStats => ({
  name,
  counts: { ready, scheduled: 0, running: null },
  dead: null,
  oldestWaitingAt: null,
  tasks: null,
  ...extra,
});
const held = (id: string, ago: number, extra: Partial<HeldFact> = {}): HeldFact => ({
  id,
  queue: 'q',
  task: 't.x',
  deliveredAt: NOW / 1000 - ago,
  etaMs: null,
  timeLimit: null,
  ...extra,
});
const worker = (host: string, extra: Partial<LiveWorker> = {}): LiveWorker => ({
  host,
  queues: ['q'],
  active: [],
  waiting: [],
  hardLimit: null,
  ...extra,
});
const facts = (f: Partial<CeleryFacts>): CeleryFacts => ({
  brokerId: 'b',
  queues: [],
  live: [],
  held: { value: { items: [], capped: false } },
  unacked: null,
  visibilityTimeout: 60,
  late: { value: [] },
  overdueSeconds: 120,
  inspectMs: 1000,
  revoke: { on: true },
  nowMs: NOW,
  ...f,
});
const of = (d: ReturnType<typeof diagnoseCelery>, check: string) => d.flags.filter((f) => f.check === check);

describe('celery stuck-work checks', () => {
  it('flags a reservation no live worker reports, with when kombu gives it back', () => {
    const d = diagnoseCelery(
      facts({
        held: { value: { items: [held('a', 10), held('b', 5)], capped: false } },
        live: [worker('w1', { active: [{ id: 'b', task: 't.x', queue: 'q', startedAt: NOW / 1000 - 5, etaMs: null }] })],
      }),
    );
    const [f] = of(d, 'worker-lost');
    expect(f).toMatchObject({ ids: ['a'], count: 1, queue: 'q', link: { page: 'task', id: 'a' } });
    expect(f!.cause).toMatch(/visibility timeout \(60 s\) has passed, in 50s|in 50 s/);
    expect(f!.cannot).toMatch(/never changes running/i);
  });

  it('says nothing restores a lost reservation while no worker is alive, and that its timeout passed', () => {
    const d = diagnoseCelery(facts({ held: { value: { items: [held('a', 90), held('c', 80)], capped: false } } }));
    const [f] = of(d, 'worker-lost');
    expect(f).toMatchObject({ ids: ['a', 'c'], count: 2, link: { page: 'queue', queue: 'q', state: 'running' } });
    expect(f!.cause).toContain('passed');
    expect(f!.can).toMatch(/No worker is alive/);
  });

  it('flags a live worker holding a message past the visibility timeout (it will run twice)', () => {
    const d = diagnoseCelery(
      facts({
        held: { value: { items: [held('a', 100)], capped: false } },
        live: [worker('w1', { active: [{ id: 'a', task: 't.x', queue: 'q', startedAt: NOW / 1000 - 100, etaMs: null }] })],
      }),
    );
    expect(of(d, 'worker-lost')).toEqual([]);
    expect(of(d, 'over-time-limit')[0]).toMatchObject({ ids: ['a'] });
    expect(of(d, 'over-time-limit')[0]!.cause).toMatch(/runs it again/);
  });

  it("checks active tasks against the message's limit, else the worker's", () => {
    const active = [
      { id: 'm', task: 't.m', queue: 'q', startedAt: NOW / 1000 - 50, etaMs: null },
      { id: 'w', task: 't.w', queue: 'q', startedAt: NOW / 1000 - 50, etaMs: null },
      { id: 'ok', task: 't.ok', queue: 'q', startedAt: NOW / 1000 - 20, etaMs: null },
    ];
    const d = diagnoseCelery(
      facts({
        visibilityTimeout: 3600,
        held: { value: { items: [held('m', 50, { timeLimit: 5 })], capped: false } },
        live: [worker('w1', { active, hardLimit: 10 })],
      }),
    );
    expect(
      of(d, 'over-time-limit')
        .map((f) => f.ids[0])
        .sort(),
    ).toEqual(['m', 'w']);
  });

  it('flags a queue no live worker consumes, by active_queues or by the broker consumer count', () => {
    const d = diagnoseCelery(facts({ queues: [queue('q', 3), queue('idle', 2), queue('empty', 0)], live: [worker('w1')] }));
    expect(of(d, 'no-consumer').map((f) => [f.queue, f.count])).toEqual([['idle', 2]]);
    const r = diagnoseCelery(facts({ held: { why: 'x' }, queues: [queue('q', 3, { consumers: 0 }), queue('r', 1, { consumers: 2 })] }));
    expect(of(r, 'no-consumer').map((f) => f.queue)).toEqual(['q']);
    expect(of(r, 'no-consumer')[0]!.cause).toContain('RabbitMQ counts no consumer');
  });

  it('quotes the queue name in the commands it suggests, so a hostile name stays one word', () => {
    const d = diagnoseCelery(facts({ held: { why: 'x' }, queues: [queue("a'b $(id)", 1, { consumers: 0 })] }));
    const can = of(d, 'no-consumer')[0]!.can;
    expect(can).toContain(`worker -Q 'a'\\''b $(id)'`);
    expect(can).toContain(`add_consumer 'a'\\''b $(id)'`);
  });

  it('flags overdue ETAs in a list and held by a worker that has not started them', () => {
    const d = diagnoseCelery(
      facts({
        late: { value: [{ queue: 'q', count: 1, capped: false, oldestSeconds: 300, ids: ['l'] }] },
        live: [
          worker('w1', {
            waiting: [
              { id: 'h', task: 't', queue: 'q', startedAt: null, etaMs: NOW - 200_000 },
              { id: 'soon', task: 't', queue: 'q', startedAt: null, etaMs: NOW - 1000 },
            ],
          }),
        ],
      }),
    );
    const flags = of(d, 'overdue');
    expect(flags.map((f) => f.ids)).toEqual([['l'], ['h']]);
    expect(flags[0]!.link).toEqual({ page: 'task', id: 'l' });
  });

  it('on RabbitMQ counts unacknowledged messages no live worker reports, and says what is unknown', () => {
    const d = diagnoseCelery(
      facts({
        held: { why: 'no browse' },
        unacked: {
          value: new Map([
            ['q', 3],
            ['r', 1],
          ]),
        },
        late: { why: 'in the queue' },
        live: [worker('w1', { queues: ['q', 'r'], active: [{ id: 'a', task: 't', queue: 'r', startedAt: NOW / 1000, etaMs: null }] })],
      }),
    );
    expect(of(d, 'worker-lost').map((f) => [f.queue, f.count, f.ids])).toEqual([['q', 3, []]]);
    expect(d.notes.map((n) => n.check)).toContain('overdue');
    expect(d.unknown.map((u) => u.check)).toEqual(['poison']);
    const none = diagnoseCelery(facts({ held: { why: 'no browse' }, unacked: { why: 'no management API' } }));
    expect(none.unknown.find((u) => u.check === 'worker-lost')?.why).toBe('no management API');
  });
});
