// The shared battery every adapter must pass, against a real broker. Each broker's
// `*.int.test.ts` calls `runAdapterContract(name, makeFixture)`; the fixture seeds through a
// seeder that writes potatoq's own layout (ideally by running the real potatoq).
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConsoleError } from './errors';
import { ZDeadListQuery, ZEnqueueRequest, ZTaskListQuery, type TaskSummary } from './schema';
import type { BrokerAdapter } from './types';

export interface SeedMessage {
  task: string;
  queue: string;
  args?: unknown[];
  kwargs?: Record<string, unknown>;
  priority?: number;
  countdown?: number;
  id?: string;
  headers?: Record<string, unknown>;
}

export interface SeededResult {
  status: string;
  name: string | null;
  /** The record's keys in stored order (potatoq writes all 13). */
  keys: string[];
}

/** Writes and reads the broker natively, as potatoq does (never through the adapter). */
export interface ContractSeeder {
  enqueue(m: SeedMessage): Promise<string>;
  enqueueMany(ms: SeedMessage[]): Promise<string[]>;
  /** Claims the next task of `queue` like a worker; it stays running. */
  claim(queue: string): Promise<string | null>;
  /** A task dead-lettered by a worker with `reason` and a FAILURE result. */
  deadLetter(m: SeedMessage & { reason: string; diedAgo?: number }): Promise<string>;
  /** A dead letter with a payload potatoq can't decode (a foreign producer's). */
  deadLetterRaw(r: { id: string; queue: string; task: string; reason: string; payload: string }): Promise<void>;
  heartbeat(id: string, info: Record<string, unknown>, ageSeconds: number): Promise<void>;
  /** A heartbeat row whose info is not JSON (a foreign writer). */
  garbageWorker(id: string, info: string): Promise<void>;
  storeRegistered(digest: string, names: string[]): Promise<void>;
  jobState(id: string): Promise<'ready' | 'scheduled' | 'running' | null>;
  jobPayload(id: string): Promise<string | null>;
  isDead(id: string): Promise<boolean>;
  result(id: string): Promise<SeededResult | null>;
  queueSizes(): Promise<Record<string, number>>;
}

export interface ContractFixture {
  adapter: BrokerAdapter;
  /** Another adapter instance on the same broker, with its own connections. */
  makeSecond(): BrokerAdapter;
  seeder: ContractSeeder;
  /** Per-state counts this broker can't give: they must be null, never 0. */
  unknownCounts?: Array<'ready' | 'scheduled' | 'running' | 'dead'>;
  cleanup(): Promise<void>;
}

export const uniqueQueue = (tag = 'q') => `ct-${tag}-${randomUUID().slice(0, 8)}`;
export const TRACEBACK = (last: string) =>
  `Traceback (most recent call last):\n  File "/app/tasks.py", line 3, in boom\n    raise ValueError("x")\n${last}\n`;

const tasks = (a: BrokerAdapter, q: Partial<ReturnType<typeof ZTaskListQuery.parse>>) => a.listTasks(ZTaskListQuery.parse(q));
const dead = (a: BrokerAdapter, q: Partial<ReturnType<typeof ZDeadListQuery.parse>>) => a.listDead(ZDeadListQuery.parse(q));

async function collect(a: BrokerAdapter, q: Partial<ReturnType<typeof ZTaskListQuery.parse>>, limit: number): Promise<TaskSummary[]> {
  const out: TaskSummary[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await tasks(a, { ...q, limit, cursor });
    out.push(...page.items);
    if (!page.nextCursor) return out;
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not end');
}

export function runAdapterContract(name: string, makeFixture: () => Promise<ContractFixture>): void {
  describe(`${name} adapter contract`, () => {
    let fx: ContractFixture;
    let a: BrokerAdapter;
    let s: ContractSeeder;
    beforeEach(async () => {
      fx = await makeFixture();
      a = fx.adapter;
      s = fx.seeder;
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    registerListing(() => ({ fx, a, s }), collect);
    registerDead(() => ({ fx, a, s }));
    registerActions(() => ({ fx, a, s }));
  });
}

type Ctx = () => { fx: ContractFixture; a: BrokerAdapter; s: ContractSeeder };

function registerListing(ctx: Ctx, all: typeof collect): void {
  it('lists ready tasks in the order a worker claims them', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('order');
    await s.enqueueMany([0, 5, 0, 5, -1, 9].map((priority, i) => ({ task: 'ct.order', queue: q, priority, args: [i] })));
    const listed = (await tasks(a, { queue: q, state: 'ready' })).items.map((t) => t.id);
    const claimed: string[] = [];
    for (let i = 0; i < 6; i++) claimed.push((await s.claim(q))!);
    expect(listed).toEqual(claimed);
    const running = (await tasks(a, { queue: q, state: 'running' })).items;
    expect(running.map((t) => t.id)).toEqual(claimed);
    expect(running.every((t) => t.state === 'running' && t.worker !== null)).toBe(true);
  });

  it('lists scheduled tasks by run time with their eta', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('sched');
    const [late, soon, mid] = await s.enqueueMany([300, 100, 200].map((countdown) => ({ task: 'ct.later', queue: q, countdown })));
    const items = (await tasks(a, { queue: q, state: 'scheduled' })).items;
    expect(items.map((t) => t.id)).toEqual([soon, mid, late]);
    expect(items[0]!.runAt! < items[1]!.runAt!).toBe(true);
    expect(Date.parse(items[0]!.runAt!)).toBeGreaterThan(Date.now() + 90_000);
    expect((await tasks(a, { queue: q, state: 'ready' })).items).toEqual([]);
  });

  it('pages with a keyset cursor that neither repeats nor skips, even when tasks arrive', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('page');
    await s.enqueueMany(Array.from({ length: 23 }, (_, i) => ({ task: 'ct.page', queue: q, priority: i % 3, args: [i] })));
    const whole = (await tasks(a, { queue: q, limit: 100 })).items.map((t) => t.id);
    expect(whole).toHaveLength(23);
    expect((await all(a, { queue: q }, 5)).map((t) => t.id)).toEqual(whole);
    const first = await tasks(a, { queue: q, limit: 5 });
    await s.enqueue({ task: 'ct.page', queue: q, priority: 9 }); // sorts before the cursor
    const rest: string[] = [];
    let cursor = first.nextCursor ?? undefined;
    while (cursor) {
      const page = await tasks(a, { queue: q, limit: 5, cursor });
      rest.push(...page.items.map((t) => t.id));
      cursor = page.nextCursor ?? undefined;
    }
    expect([...first.items.map((t) => t.id), ...rest]).toEqual(whole);
  });

  it('filters tasks by queue, task name, id prefix and payload text', async () => {
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

  it('shows a task with its decoded payload, and null for an unknown id', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('detail');
    const id = await s.enqueue({ task: 'ct.detail', queue: q, args: [1, 'two'], kwargs: { k: 'v' }, priority: 4 });
    const t = await a.getTask(id);
    expect(t).not.toBeNull();
    expect(t!.state).toBe('ready');
    expect(t!.priority).toBe('4');
    expect(t!.payload.kind).toBe('potatoq');
    if (t!.payload.kind === 'potatoq') expect(t!.payload.task).toBe('ct.detail');
    expect(t!.raw).toBe(await s.jobPayload(id));
    expect(t!.rawTruncated).toBe(false);
    expect(await a.getTask(`missing-${randomUUID()}`)).toBeNull();
  });

  it('counts each queue per state, and null only for counts the broker cannot give', async () => {
    const { fx, a, s } = ctx();
    const q = uniqueQueue('counts');
    await s.enqueueMany([{ task: 'ct.c1', queue: q }, { task: 'ct.c1', queue: q }, { task: 'ct.c2', queue: q }, { task: 'ct.c3', queue: q, countdown: 600 }]);
    await s.claim(q);
    await s.deadLetter({ task: 'ct.c4', queue: q, reason: 'boom' });
    const stats = (await a.overview()).queues.find((x) => x.name === q);
    expect(stats).toBeDefined();
    const expected = { ready: 2, scheduled: 1, running: 1, dead: 1 } as const;
    for (const k of ['ready', 'scheduled', 'running', 'dead'] as const) {
      expect(stats![k]).toBe(fx.unknownCounts?.includes(k) ? null : expected[k]);
    }
    expect(stats!.oldestReadyAt).not.toBeNull();
    if (stats!.tasks) expect(stats!.tasks).toEqual(expect.arrayContaining(['ct.c1', 'ct.c2']));
    const sizes = await s.queueSizes();
    if (stats!.ready !== null && stats!.scheduled !== null) expect(sizes[q]).toBe(stats!.ready + stats!.scheduled);
  });

  it('reports workers as alive, stale or dead by heartbeat age and tolerates garbage info', async () => {
    const { a, s } = ctx();
    const tag = randomUUID().slice(0, 6);
    await s.heartbeat(`w-alive-${tag}`, { hostname: 'potatoq@h', pid: 11, queues: ['default'], concurrency: 2, running: ['t1'], registered: null }, 0);
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
  });

  it('lists task names from tasks, dead letters and registered-task records', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('names');
    const tag = randomUUID().slice(0, 6);
    await s.enqueue({ task: `ct.waiting.${tag}`, queue: q });
    await s.deadLetter({ task: `ct.dead.${tag}`, queue: q, reason: 'x' });
    await s.storeRegistered(tag.padEnd(16, '0'), [`ct.registered.${tag}`]);
    const names = await a.taskNames();
    expect(names).toEqual(expect.arrayContaining([`ct.waiting.${tag}`, `ct.dead.${tag}`, `ct.registered.${tag}`]));
    expect([...names].sort()).toEqual(names);
    const results = await a.listResults({ status: undefined, limit: 500 });
    expect(results.items.some((r) => r.id.startsWith('potatoq-registered-') || r.id.startsWith('group:'))).toBe(false);
  });
}

function registerDead(ctx: Ctx): void {
  it('lists dead letters newest first with the reason line potatoq shows, and pages them', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('dead');
    const old = await s.deadLetter({ task: 'ct.d', queue: q, reason: TRACEBACK('ValueError: old one'), diedAgo: 120 });
    const mid = await s.deadLetter({ task: 'ct.d', queue: q, reason: TRACEBACK('ValueError: mid one'), diedAgo: 60 });
    const young = await s.deadLetter({ task: 'ct.d', queue: q, reason: `unregistered task ct.d\n` });
    const page1 = await dead(a, { queue: q, limit: 2 });
    const page2 = await dead(a, { queue: q, limit: 2, cursor: page1.nextCursor! });
    expect([...page1.items, ...page2.items].map((d) => d.id)).toEqual([young, mid, old]);
    expect(page2.nextCursor).toBeNull();
    expect(page1.items[1]!.summary).toBe('ValueError: mid one');
    expect(page1.items[0]!.summary).toBe('unregistered task ct.d');
  });

  it('groups dead letters by their last reason line and filters by group', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('groups');
    await s.deadLetter({ task: 'ct.g1', queue: q, reason: TRACEBACK('KeyError: 1') });
    await s.deadLetter({ task: 'ct.g2', queue: q, reason: TRACEBACK('KeyError: 1') });
    const lone = await s.deadLetter({ task: 'ct.g1', queue: q, reason: TRACEBACK('TypeError: nope') });
    const groups = await a.deadGroups({ queue: q });
    expect(groups.map((g) => [g.summary, g.count])).toEqual([['KeyError: 1', 2], ['TypeError: nope', 1]]);
    expect(groups[0]!.tasks).toEqual(['ct.g1', 'ct.g2']);
    expect((await dead(a, { queue: q, group: 'TypeError: nope' })).items.map((d) => d.id)).toEqual([lone]);
    expect((await dead(a, { queue: q, q: 'TypeError' })).items.map((d) => d.id)).toEqual([lone]);
  });

  it('shows a dead letter with its full reason and its FAILURE result', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('deaddetail');
    const reason = TRACEBACK('ValueError: boom');
    const id = await s.deadLetter({ task: 'ct.dd', queue: q, reason, args: [1] });
    const d = await a.getDead(id);
    expect(d?.reason).toBe(reason);
    expect(d?.summary).toBe('ValueError: boom');
    expect(d?.payload.kind).toBe('potatoq');
    expect(d?.result?.status).toBe('FAILURE');
    expect(d?.result?.excType).toBe('ValueError');
    expect(d?.result?.traceback).toBe(reason);
    expect(await a.getDead(`missing-${randomUUID()}`)).toBeNull();
  });
}

function registerActions(ctx: Ctx): void {
  it('replays a dead letter as a ready task without its eta and without its old result', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('replay');
    const id = await s.deadLetter({ task: 'ct.r', queue: q, reason: 'boom', countdown: 3600, args: [7] });
    expect(await s.result(id)).not.toBeNull();
    const r = await a.replayDead([id]);
    expect(r.succeeded.map((o) => o.id)).toEqual([id]);
    expect(await s.isDead(id)).toBe(false);
    expect(await s.jobState(id)).toBe('ready');
    expect(await s.result(id)).toBeNull();
    const payload = JSON.parse((await s.jobPayload(id))!) as Record<string, unknown>;
    expect(payload.eta).toBeUndefined();
    expect(payload.args).toEqual([7]);
    expect(await s.claim(q)).toBe(id);
  });

  it('reports replaying an id that is not dead as missing', async () => {
    const { a } = ctx();
    const id = `missing-${randomUUID()}`;
    const r = await a.replayDead([id]);
    expect(r.failed).toEqual([{ id, outcome: 'missing', message: expect.any(String) }]);
  });

  it('keeps the letter when a task with the same id is already waiting (potatoq would lose it)', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('conflict');
    const id = await s.deadLetter({ task: 'ct.c', queue: q, reason: 'boom' });
    await s.enqueue({ task: 'ct.c', queue: q, id, args: ['live'] });
    const r = await a.replayDead([id]);
    expect(r.failed[0]?.outcome).toBe('conflict');
    expect(await s.isDead(id)).toBe(true);
    expect(JSON.parse((await s.jobPayload(id))!).args).toEqual(['live']);
  });

  it('refuses to replay a payload potatoq cannot decode and keeps the letter', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('invalid');
    const id = `raw-${randomUUID()}`;
    await s.deadLetterRaw({ id, queue: q, task: 'celery.x', reason: 'foreign', payload: '[[1],{},{}]' });
    const r = await a.replayDead([id]);
    expect(r.failed[0]?.outcome).toBe('invalid');
    expect(r.failed[0]?.message).toContain('Celery');
    expect(await s.isDead(id)).toBe(true);
    expect(await s.jobState(id)).toBeNull();
  });

  it('replays a letter exactly once when two consoles replay it at the same time', async () => {
    const { fx, a, s } = ctx();
    const q = uniqueQueue('race');
    const id = await s.deadLetter({ task: 'ct.race', queue: q, reason: 'boom' });
    const b = fx.makeSecond();
    try {
      const [r1, r2] = await Promise.all([a.replayDead([id]), b.replayDead([id])]);
      const outcomes = [...r1.succeeded, ...r1.failed, ...r2.succeeded, ...r2.failed].map((o) => o.outcome).sort();
      expect(outcomes).toEqual(['missing', 'ok']);
      expect(await s.claim(q)).toBe(id);
      expect(await s.claim(q)).toBeNull();
    } finally {
      await b.close();
    }
  });

  it('discards dead letters and reports ids that are gone', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('discard');
    const id = await s.deadLetter({ task: 'ct.x', queue: q, reason: 'boom' });
    const r = await a.discardDead([id, `missing-${randomUUID()}`]);
    expect(r.succeeded.map((o) => o.id)).toEqual([id]);
    expect(r.failed.map((o) => o.outcome)).toEqual(['missing']);
    expect(await s.isDead(id)).toBe(false);
    expect(await s.jobState(id)).toBeNull();
  });

  it('revokes a waiting task, refuses a running one, and marks REVOKED like potatoq', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('revoke');
    const [waiting, running] = await s.enqueueMany([{ task: 'ct.rv', queue: q, priority: 1 }, { task: 'ct.rv', queue: q, priority: 5 }]);
    expect(await s.claim(q)).toBe(running);
    const payloadBefore = await s.jobPayload(running!);
    const unknown = `unknown-${randomUUID()}`;
    const r = await a.revoke([waiting!, running!, unknown]);
    expect(r.succeeded.map((o) => o.id).sort()).toEqual([waiting, unknown].sort());
    expect(r.failed).toEqual([{ id: running, outcome: 'running', message: expect.any(String) }]);
    expect(await s.jobState(waiting!)).toBeNull();
    expect(await s.jobState(running!)).toBe('running');
    expect(await s.jobPayload(running!)).toBe(payloadBefore);
    const mark = await s.result(waiting!);
    expect(mark?.status).toBe('REVOKED');
    expect(mark?.name).toBe('ct.rv');
    expect(mark?.keys).toHaveLength(13);
    expect((await s.result(unknown))?.status).toBe('REVOKED');
    expect((await s.result(unknown))?.name).toBeNull();
  });

  it('purges waiting tasks of one queue only, leaving running work and dead letters', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('purge');
    const other = uniqueQueue('keep');
    const ids = await s.enqueueMany([{ task: 'ct.p', queue: q }, { task: 'ct.p', queue: q, priority: 3 }, { task: 'ct.p', queue: q, countdown: 600 }]);
    const running = await s.claim(q);
    const kept = await s.enqueue({ task: 'ct.p', queue: other });
    const letter = await s.deadLetter({ task: 'ct.p', queue: q, reason: 'boom' });
    const r = await a.purge(q);
    expect(r.removed).toBe(2);
    expect(await s.jobState(running!)).toBe('running');
    expect(await s.jobState(kept)).toBe('ready');
    expect(await s.isDead(letter)).toBe(true);
    for (const id of ids) if (id !== running) expect(await s.result(id)).toBeNull();
  });

  it('enqueues a compact message that potatoq claims, scheduled when given a countdown', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('enqueue');
    const now = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.e', queue: q, args: '[1, 2]', kwargs: '{"k": "v"}', priority: 3, headers: '{"h": 1}' }));
    expect(now.state).toBe('ready');
    const payload = JSON.parse((await s.jobPayload(now.id))!) as Record<string, unknown>;
    expect(payload).toMatchObject({ task: 'ct.e', id: now.id, v: 1, queue: q, args: [1, 2], kwargs: { k: 'v' }, priority: 3, headers: { h: 1 } });
    expect(typeof payload.enqueued_at).toBe('number');
    const later = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.e', queue: q, countdown: 600 }));
    expect(later.state).toBe('scheduled');
    expect(await s.jobState(later.id)).toBe('scheduled');
    expect(typeof JSON.parse((await s.jobPayload(later.id))!).eta).toBe('number');
    expect(await s.claim(q)).toBe(now.id);
  });

  it('rejects bad enqueue input naming the field, and writes nothing', async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('bad');
    for (const [field, req] of [
      ['args', { args: '{"not": "a list"}' }],
      ['kwargs', { kwargs: '[1]' }],
      ['headers', { headers: 'nope' }],
    ] as const) {
      const err = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.bad', queue: q, ...req })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isConsoleError(err) && err.code).toBe('InvalidInput');
      expect(isConsoleError(err) && err.fields && Object.keys(err.fields)).toEqual([field]);
    }
    expect((await s.queueSizes())[q]).toBeUndefined();
  });
}
