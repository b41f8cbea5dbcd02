import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { countOf, listCapability, timeOf, type TaskSummary } from '@/lib/brokers/dto';
import type { Capability, ListOrder, StateDecl } from '@/lib/brokers/model';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { collect, contractCase, keyOf, tasks, uniqueQueue, type Ctx } from './helpers';

/** The adapter method each capability needs: one that is on must have it. */
const METHOD_OF: Partial<Record<Capability, keyof BrokerAdapter>> = {
  browseDead: 'listDead',
  replay: 'replayDead',
  discard: 'discardDead',
  revoke: 'revoke',
  purge: 'purge',
  enqueue: 'enqueue',
  results: 'listResults',
  workers: 'listWorkers',
  pause: 'setQueuePaused',
};

const stateDecl = (a: BrokerAdapter, key: string): StateDecl => a.model.states.find((st) => st.key === key)!;

/** The ids the seeding knows the order of: as created, as claimed, and by run time. */
interface KnownOrder {
  created: string[];
  claimed?: string[];
  byRunAt?: string[];
}

/**
 * The list is in the order its state declares. A claim order is the claims' (the seeder claims
 * as a worker does); creation, claim and run-time orders are the seeding's, either way round; an
 * order by any other time (a lease deadline a worker moves) holds the same tasks, sorted by it.
 */
function expectDeclaredOrder(order: ListOrder, items: TaskSummary[], known: KnownOrder): void {
  const ids = items.map((t) => t.id);
  const turn = (xs: string[] | undefined, dir: 'asc' | 'desc') => (xs && dir === 'desc' ? [...xs].reverse() : xs);
  if (order.by === 'claim') return expect(ids, order.label).toEqual(known.claimed);
  // Not `startedAt`: SDJ on MySQL keeps milliseconds, so claims within one are ordered by id.
  const seeded = { createdAt: known.created, claimedAt: known.claimed, runAt: known.byRunAt }[order.field];
  const expected = turn(seeded, order.dir);
  if (expected && ids.length === expected.length) return expect(ids, order.label).toEqual(expected);
  expect([...ids].sort(), order.label).toEqual([...(known.claimed ?? known.created)].sort());
  const times = items.map((t) => Date.parse(timeOf(t, order.field) ?? ''));
  const sorted = times.every((x, i) => Number.isFinite(x) && (i === 0 || (order.dir === 'asc' ? x >= times[i - 1]! : x <= times[i - 1]!)));
  expect(sorted, `${order.label}: by ${order.field}, ${order.dir}`).toBe(true);
}

export function registerListing(ctx: Ctx, all: typeof collect): void {
  contractCase(ctx, 'turns a capability on only where the adapter has what it needs, and says why one is off', {}, async () => {
    const { a } = ctx();
    for (const [cap, v] of Object.entries(await a.capabilities()) as Array<[Capability, { on: boolean; why?: string }]>) {
      const method = METHOD_OF[cap];
      if (v.on && method) expect(typeof a[method], `${cap} is on, so the adapter needs ${method}()`).toBe('function');
      if (!v.on) expect(v.why?.length ?? 0, `${cap} is off without a reason`).toBeGreaterThan(10);
    }
    // Each declared state says whether it can be listed here: its own `list:<key>` capability.
    const caps = await a.capabilities();
    for (const st of a.model.states) expect(caps[listCapability(st.key)], `list:${st.key}`).toBeDefined();
  });

  contractCase(ctx, 'declares each side of a cross-broker move it can take with the method it needs, and says why not', {}, async () => {
    const { a } = ctx();
    const calls = a.model.calls;
    if (!calls) return expect(a.exportCall ?? a.importCall ?? a.importValue, 'methods without a declared call model').toBeUndefined();
    expect(calls.model.length).toBeGreaterThan(0);
    // A named-payload system takes and gives jobs converted through a call mapping
    // (`importValue`, `exportValue`); a positional one, calls (`importCall`, `exportCall`).
    const value = a.model.task?.payload.shape === 'value';
    for (const [side, method] of [
      ['export', value ? 'exportValue' : 'exportCall'],
      ['import', value ? 'importValue' : 'importCall'],
    ] as const) {
      const d = calls[side];
      if ('does' in d) expect(typeof a[method], `calls.${side} is on, so the adapter needs ${method}()`).toBe('function');
      else expect(d.why.length, `calls.${side} is off without a reason`).toBeGreaterThan(10);
    }
  });

  contractCase(ctx, 'lists waiting and running tasks in the order their states declare', { lists: ['waiting', 'running'] }, async () => {
    const { fx, a, s } = ctx();
    const [waiting, run] = [keyOf(a, 'waiting'), keyOf(a, 'running')];
    const q = uniqueQueue('order');
    const seeded = await s.enqueueMany([0, 5, 0, 5, -1, 9].map((priority, i) => ({ task: 'ct.order', queue: q, priority, args: [i] })));
    const waitingList = (await tasks(a, { queue: q, state: waiting })).items;
    const claimed: string[] = [];
    for (let i = 0; i < 6; i++) claimed.push((await s.claim(q))!);
    expect([...claimed].sort()).toEqual([...seeded].sort());
    const known = { created: seeded, claimed };
    expectDeclaredOrder(stateDecl(a, waiting).order, waitingList, known);
    const running = (await tasks(a, { queue: q, state: run })).items;
    expectDeclaredOrder(stateDecl(a, run).order, running, known);
    expect(running.every((t) => t.state === run)).toBe(true);
    // Where the broker records who holds a task, the list names it.
    if (!fx.noRunningWorker) expect(running.every((t) => t.worker !== null)).toBe(true);
  });

  contractCase(
    ctx,
    'lists scheduled tasks in the order their state declares, with their eta',
    { lists: ['scheduled', 'waiting'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('sched');
      const [late, soon, mid] = await s.enqueueMany([300, 100, 200].map((countdown) => ({ task: 'ct.later', queue: q, countdown })));
      const sched = keyOf(a, 'scheduled');
      const items = (await tasks(a, { queue: q, state: sched })).items;
      expectDeclaredOrder(stateDecl(a, sched).order, items, { created: [late!, soon!, mid!], byRunAt: [soon!, mid!, late!] });
      const eta = (id: string) => Date.parse(items.find((t) => t.id === id)!.runAt!);
      expect(eta(soon!) < eta(mid!) && eta(mid!) < eta(late!)).toBe(true);
      expect(eta(soon!)).toBeGreaterThan(Date.now() + 90_000);
      expect((await tasks(a, { queue: q, state: keyOf(a, 'waiting') })).items).toEqual([]);
    },
  );

  contractCase(
    ctx,
    'pages with a keyset cursor that neither repeats nor skips, even when tasks arrive',
    { lists: ['waiting'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('page');
      await s.enqueueMany(Array.from({ length: 23 }, (_, i) => ({ task: 'ct.page', queue: q, priority: i % 3, args: [i] })));
      const whole = (await tasks(a, { queue: q, limit: 100 })).items.map((t) => t.id);
      expect(whole).toHaveLength(23);
      expect((await all(a, { queue: q }, 5)).map((t) => t.id)).toEqual(whole);
      const first = await tasks(a, { queue: q, limit: 5 });
      // Arrives mid-walk; where it sorts is the system's (before the cursor for potatoq, after it
      // on Celery's Redis, which takes priority 9 last): the walk may show it once, never repeat.
      const arrived = await s.enqueue({ task: 'ct.page', queue: q, priority: 9 });
      const rest: string[] = [];
      let cursor = first.nextCursor ?? undefined;
      while (cursor) {
        const page = await tasks(a, { queue: q, limit: 5, cursor });
        rest.push(...page.items.map((t) => t.id));
        cursor = page.nextCursor ?? undefined;
      }
      expect([...first.items.map((t) => t.id), ...rest].filter((id) => id !== arrived)).toEqual(whole);
    },
  );

  contractCase(ctx, 'filters tasks by queue, task name, id prefix and payload text', { lists: ['waiting'] }, async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('filter');
    const other = uniqueQueue('other');
    const [x, y] = await s.enqueueMany([
      { task: 'ct.alpha', queue: q, kwargs: { note: 'needle-7781' } },
      { task: 'ct.beta', queue: q },
    ]);
    await s.enqueue({ task: 'ct.alpha', queue: other, kwargs: { note: 'needle-7781' } });
    expect((await tasks(a, { queue: q, task: 'ct.alpha' })).items.map((t) => t.id)).toEqual([x]);
    expect((await tasks(a, { queue: q, id: y!.slice(0, 8) })).items.map((t) => t.id)).toEqual([y]);
    expect((await tasks(a, { queue: q, q: 'needle-7781' })).items.map((t) => t.id)).toEqual([x]);
    expect((await tasks(a, { queue: q, q: 'no-such-text-0042' })).items).toEqual([]);
  });

  contractCase(ctx, 'shows a task with its decoded payload, and null for an unknown id', { lists: ['waiting'] }, async () => {
    const { fx, a, s } = ctx();
    const q = uniqueQueue('detail');
    const id = await s.enqueue({ task: 'ct.detail', queue: q, args: [1, 'two'], kwargs: { k: 'v' }, priority: 4 });
    const t = await a.getTask(id);
    expect(t).not.toBeNull();
    expect(t!.state).toBe(keyOf(a, 'waiting'));
    expect(t!.priority).toBe('4');
    expect(t!.payload.foreign).toBeNull();
    expect(t!.payload.task).toBe('ct.detail');
    const stored = await s.jobPayload(id);
    // The stored text itself; where the broker does not keep a JSON payload's key order, its value.
    if (fx.rawKeyOrderLost) expect(JSON.parse(t!.raw)).toEqual(JSON.parse(stored!));
    else expect(t!.raw).toBe(stored);
    expect(t!.rawTruncated).toBe(false);
    expect(await a.getTask(`missing-${randomUUID()}`)).toBeNull();
  });

  contractCase(ctx, 'counts each queue per state, and null only for counts the broker cannot give', {}, async () => {
    const { fx, a, s } = ctx();
    const q = uniqueQueue('counts');
    await s.enqueueMany([
      { task: 'ct.c1', queue: q },
      { task: 'ct.c1', queue: q },
      { task: 'ct.c2', queue: q },
      { task: 'ct.c3', queue: q, countdown: 600 },
    ]);
    await s.claim(q);
    await s.deadLetter({ task: 'ct.c4', queue: q, reason: 'boom' });
    const o = await a.overview();
    const stats = o.queues.find((x) => x.name === q);
    expect(stats).toBeDefined();
    // Counts are keyed by the declared states, found by the role they play: the `waiting` state
    // holds what a worker may claim now, the `scheduled` one the task with a countdown, the
    // `running` one the claimed task; a state of the system's own (none of these) holds none of
    // them. Where a message with an ETA waits in its queue among the waiting ones (Celery on
    // RabbitMQ), or no state plays `scheduled`, the waiting state's count includes it.
    const states = a.model.states;
    const role = (k: string) => states.find((st) => st.key === k)?.role;
    const later = states.some((st) => st.role === 'scheduled') && !fx.etaWaitsInQueue;
    const expectedOf = (k: string): number =>
      k === 'dead' ? 1 : role(k) === 'waiting' ? (later ? 2 : 3) : role(k) === 'scheduled' || role(k) === 'running' ? 1 : 0;
    for (const k of new Set([...states.map((st) => st.key), ...(fx.unknownCounts ?? []), 'dead'])) {
      const unknown = fx.unknownCounts?.includes(k) ?? false;
      expect(countOf(stats!, k), k).toBe(unknown ? null : expectedOf(k));
      // A column the broker can't give is explained to the operator, and only such a column.
      expect(!!o.unknownWhy?.[k], `unknownWhy.${k}`).toBe(unknown);
    }
    if (!fx.noOldestWaiting) expect(stats!.oldestWaitingAt).not.toBeNull();
    expect(!!o.unknownWhy?.oldest, 'unknownWhy.oldest').toBe(!!fx.noOldestWaiting);
    if (stats!.tasks) expect(stats!.tasks).toEqual(expect.arrayContaining(['ct.c1', 'ct.c2']));
    const sizes = await s.queueSizes();
    // What waits (every state no worker owns) is what the broker says its queue holds.
    const waiting = states.filter((st) => !st.owned).map((st) => countOf(stats!, st.key));
    if (waiting.every((n) => n !== null)) expect(sizes[q]).toBe(waiting.reduce((t, n) => t! + n!, 0));
  });

  contractCase(
    ctx,
    'reports workers as alive, stale or dead by heartbeat age and tolerates garbage info',
    { caps: ['workers'] },
    async (skip) => {
      const { a, s } = ctx();
      if (!s.heartbeat || !s.garbageWorker) return skip('this system keeps no worker heartbeats in the broker');
      const tag = randomUUID().slice(0, 6);
      await s.heartbeat(
        `w-alive-${tag}`,
        { hostname: 'potatoq@h', pid: 11, queues: ['default'], concurrency: 2, running: ['t1'], registered: null },
        0,
      );
      await s.heartbeat(`w-stale-${tag}`, { hostname: 'potatoq@h', pid: 12, queues: ['default'], concurrency: 1, running: [] }, 30);
      await s.heartbeat(`w-dead-${tag}`, { hostname: 'potatoq@h', pid: 13, queues: ['default'], concurrency: 1, running: [] }, 120);
      await s.garbageWorker(`w-garbage-${tag}`, 'not json {');
      const ws = (await a.listWorkers()).filter((w) => w.id.endsWith(tag));
      const by = Object.fromEntries(ws.map((w) => [w.id.split('-')[1], w]));
      expect(by.alive?.status).toBe('alive');
      expect(by.alive?.running).toEqual(['t1']);
      expect(by.alive?.concurrency).toBe('2');
      expect(by.stale?.status).toBe('stale');
      expect(by.dead?.status).toBe('dead');
      expect(by.garbage?.status).toBe('alive');
      expect(by.garbage?.queues).toEqual([]);
    },
  );

  contractCase(
    ctx,
    'lists task names from tasks, dead letters and registered-task records',
    { caps: ['browseDead', 'results'], lists: ['waiting'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('names');
      const tag = randomUUID().slice(0, 6);
      await s.enqueue({ task: `ct.waiting.${tag}`, queue: q });
      await s.deadLetter({ task: `ct.dead.${tag}`, queue: q, reason: 'x' });
      await s.storeRegistered?.(tag.padEnd(16, '0'), [`ct.registered.${tag}`]);
      const names = await a.taskNames();
      const expected = [`ct.waiting.${tag}`, `ct.dead.${tag}`, ...(s.storeRegistered ? [`ct.registered.${tag}`] : [])];
      expect(names).toEqual(expect.arrayContaining(expected));
      expect([...names].sort()).toEqual(names);
      const results = await a.listResults({ status: undefined, limit: 500 });
      expect(results.items.some((r) => r.id.startsWith('potatoq-registered-') || r.id.startsWith('group:'))).toBe(false);
    },
  );

  contractCase(ctx, 'says the queues each task was seen in, most-seen first', {}, async (skip) => {
    const { a, s } = ctx();
    if (!a.taskQueues) return skip("this system's messages do not say where a task was seen");
    const [emails, other] = [uniqueQueue('emails'), uniqueQueue('other')];
    const tag = randomUUID().slice(0, 6);
    await s.enqueue({ task: `ct.email.${tag}`, queue: emails });
    await s.enqueue({ task: `ct.email.${tag}`, queue: emails });
    await s.enqueue({ task: `ct.email.${tag}`, queue: other });
    await s.enqueue({ task: `ct.only.${tag}`, queue: other });
    const seen = await a.taskQueues();
    expect(seen[`ct.email.${tag}`]).toEqual([emails, other]);
    expect(seen[`ct.only.${tag}`]).toEqual([other]);
  });
}
