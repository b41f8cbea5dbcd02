// potatoq's own battery, beside the shared contract: what potatoq does that another system need
// not (its result records, REVOKED marks, what its workers cannot decode, its compact wire
// messages). Each potatoq store's `*.int.test.ts` runs it with the same fixture as the contract.
import { randomUUID } from 'node:crypto';
import { ZEnqueueInput } from '@/lib/brokers/enqueue-input';
import { expect } from 'vitest';
import { contractCase, runBattery, TRACEBACK, uniqueQueue, type ContractFixture, type Ctx } from '@/tests/contract';

/** Every potatoq store (SQLite, PostgreSQL, RabbitMQ with a result backend). */
function registerPotatoq(ctx: Ctx): void {
  contractCase(ctx, "shows a dead letter's FAILURE result as potatoq's worker stored it", { caps: ['browseDead', 'results'] }, async () => {
    const { a, s } = ctx();
    const reason = TRACEBACK('ValueError: boom');
    const id = await s.deadLetter({ task: 'ct.dd', queue: uniqueQueue('failure'), reason, args: [1] });
    const d = await a.getDead(id);
    expect(d?.result?.status).toBe('FAILURE');
    expect(d?.result?.excType).toBe('ValueError');
    expect(d?.result?.traceback).toBe(reason);
  });

  contractCase(ctx, 'removes a moved letter with the result its replay would forget, once', { caps: ['discard'] }, async (skip) => {
    const { a, s } = ctx();
    if (!a.removeMoved) return skip('its replay keeps the result, so a move removes the letter as a discard does');
    const id = await s.deadLetter({ task: 'ct.mv', queue: uniqueQueue('moved'), reason: 'boom' });
    const had = (await s.result(id)) !== null;
    const r = await a.removeMoved([id]);
    expect(r.succeeded).toEqual([{ id, outcome: 'ok', message: had ? 'dead letter and its result deleted' : 'dead letter deleted' }]);
    expect(await s.isDead(id)).toBe(false);
    expect(await s.result(id)).toBeNull();
    expect((await a.removeMoved([id])).failed.map((o) => o.outcome)).toEqual(['missing']);
  });

  contractCase(ctx, 'refuses to replay a payload potatoq cannot decode and keeps the letter', { caps: ['replay'] }, async () => {
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

  contractCase(ctx, 'flags a queue whose next claim potatoq cannot decode, and only that queue', {}, async (skip) => {
    const { fx, a, s } = ctx();
    if (!s.enqueueRaw) return skip('this broker cannot hold a raw waiting payload');
    const stuck = uniqueQueue('stuck');
    const fine = uniqueQueue('fine');
    const poison = `celery-${randomUUID()}`;
    await s.enqueue({ task: 'ct.ok', queue: stuck });
    await s.enqueueRaw({ id: poison, queue: stuck, task: 'proj.add', payload: '[[4,4],{},{"callbacks":null}]', priority: 5 });
    await s.enqueue({ task: 'ct.ok', queue: fine, priority: 5 });
    await s.enqueueRaw({ id: `celery-${randomUUID()}`, queue: fine, task: 'proj.add', payload: '[[1],{},{}]' });
    const queues = (await a.overview()).queues;
    expect(queues.find((x) => x.name === stuck)?.blockedBy).toMatchObject({
      id: poison,
      task: fx.taskInPayloadOnly ? null : 'proj.add',
      foreign: 'celery-v2',
      system: 'potatoq',
    });
    // Behind a decodable head the queue still moves, so it is not flagged.
    expect(queues.find((x) => x.name === fine)?.blockedBy ?? null).toBeNull();
  });
}

/** potatoq's table stores (SQLite, PostgreSQL): jobs and results rows written as its CLI does. */
function registerPotatoqTables(ctx: Ctx): void {
  contractCase(
    ctx,
    'removes the old result when replaying a dead letter, as `potatoq dead retry` does',
    { caps: ['replay', 'list:ready'] },
    async () => {
      const { a, s } = ctx();
      const id = await s.deadLetter({ task: 'ct.r', queue: uniqueQueue('replay'), reason: 'boom', countdown: 3600, args: [7] });
      expect(await s.result(id)).not.toBeNull();
      expect((await a.replayDead([id])).succeeded.map((o) => o.id)).toEqual([id]);
      expect(await s.result(id)).toBeNull();
    },
  );

  contractCase(
    ctx,
    'marks revoked tasks REVOKED like potatoq, unknown ids too, and never a running one',
    { caps: ['revoke', 'list:ready', 'list:running'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('revoke');
      const [waiting, running] = await s.enqueueMany([
        { task: 'ct.rv', queue: q, priority: 1 },
        { task: 'ct.rv', queue: q, priority: 5 },
      ]);
      expect(await s.claim(q)).toBe(running);
      const unknown = `unknown-${randomUUID()}`;
      const r = await a.revoke([waiting!, running!, unknown]);
      // potatoq's revoke marks an id it has not seen, so a task that arrives later is skipped.
      expect(r.succeeded.map((o) => o.id).sort()).toEqual([waiting, unknown].sort());
      const mark = await s.result(waiting!);
      expect(mark?.status).toBe('REVOKED');
      expect(mark?.name).toBe('ct.rv');
      expect(mark?.keys).toHaveLength(13);
      expect((await s.result(unknown))?.status).toBe('REVOKED');
      expect((await s.result(unknown))?.name).toBeNull();
      expect(await s.result(running!)).toBeNull();
    },
  );

  contractCase(ctx, 'writes no results when purging', { caps: ['purge'] }, async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('purge');
    const ids = await s.enqueueMany([
      { task: 'ct.p', queue: q },
      { task: 'ct.p', queue: q, countdown: 600 },
    ]);
    expect((await a.purge(q)).removed).toBe(2);
    for (const id of ids) expect(await s.result(id)).toBeNull();
  });

  contractCase(
    ctx,
    "enqueues the compact message potatoq's `call` writes, with an eta when scheduled",
    { caps: ['enqueue', 'list:ready', 'list:scheduled'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('enqueue');
      const now = await a.enqueue(
        ZEnqueueInput.parse({ task: 'ct.e', queue: q, args: '[1, 2]', kwargs: '{"k": "v"}', priority: 3, headers: '{"h": 1}' }),
      );
      const payload = JSON.parse((await s.jobPayload(now.id))!) as Record<string, unknown>;
      expect(payload).toMatchObject({
        task: 'ct.e',
        id: now.id,
        v: 1,
        queue: q,
        args: [1, 2],
        kwargs: { k: 'v' },
        priority: 3,
        headers: { h: 1 },
      });
      expect(typeof payload.enqueued_at).toBe('number');
      expect(now.payload).toBe(await s.jobPayload(now.id));
      const later = await a.enqueue(ZEnqueueInput.parse({ task: 'ct.e', queue: q, countdown: 600 }));
      expect(typeof JSON.parse((await s.jobPayload(later.id))!).eta).toBe('number');
    },
  );
}

/** potatoq's battery for one store; `tables`: SQLite and PostgreSQL (rows, not messages). */
export function runPotatoqBattery(name: string, makeFixture: () => Promise<ContractFixture>, opts: { tables: boolean }): void {
  runBattery(`${name} potatoq semantics`, makeFixture, opts.tables ? [registerPotatoq, registerPotatoqTables] : [registerPotatoq]);
}
