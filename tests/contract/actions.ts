import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { enqueueLater, enqueueNow, enqueueWrongShapes } from './enqueue-sample';
import { contractCase, jobMessage, keyOf, uniqueQueue, type Ctx } from './helpers';

/** The task a replay outcome is about: the letter's own id unless the system made a new one. */
const taskOf = (a: BrokerAdapter, o: ActionOutcome) => (a.model.actions.replay.newTask ? o.taskId! : o.id);

export function registerActions(ctx: Ctx): void {
  contractCase(ctx, 'replays a dead letter as a waiting task without its eta', { caps: ['replay'], lists: ['waiting'] }, async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('replay');
    const id = await s.deadLetter({ task: 'ct.r', queue: q, reason: 'boom', countdown: 3600, args: [7] });
    const r = await a.replayDead([id]);
    expect(r.succeeded.map((o) => o.id)).toEqual([id]);
    // Where a replay is a new task (model.actions.replay.newTask) the outcome names it.
    const task = taskOf(a, r.succeeded[0]!);
    expect(await s.isDead(id)).toBe(false);
    expect(await s.jobState(task)).toBe(keyOf(a, 'waiting'));
    const m = await jobMessage(s, task);
    expect(m?.eta ?? undefined).toBeUndefined();
    expect(m?.args).toEqual([7]);
    expect(await s.claim(q)).toBe(task);
  });

  contractCase(ctx, 'reports replaying an id that is not dead as missing', { caps: ['replay'] }, async () => {
    const { a } = ctx();
    const id = `missing-${randomUUID()}`;
    const r = await a.replayDead([id]);
    expect(r.failed).toEqual([{ id, outcome: 'missing', message: expect.any(String) }]);
  });

  contractCase(
    ctx,
    'keeps the letter when a task with the same id is already waiting (potatoq would lose it)',
    { caps: ['replay'], lists: ['waiting'] },
    async (skip) => {
      const { fx, a, s } = ctx();
      if (fx.sharedIds) return skip(fx.sharedIds);
      if (a.model.actions.replay.newTask) return skip('a replay here is a new task with an id of its own: no id to collide with');
      const q = uniqueQueue('conflict');
      const id = await s.deadLetter({ task: 'ct.c', queue: q, reason: 'boom' });
      await s.enqueue({ task: 'ct.c', queue: q, id, args: ['live'] });
      const r = await a.replayDead([id]);
      expect(r.failed[0]?.outcome).toBe('conflict');
      expect(await s.isDead(id)).toBe(true);
      expect((await jobMessage(s, id))?.args).toEqual(['live']);
    },
  );

  contractCase(ctx, 'replays a letter exactly once when two consoles replay it at the same time', { caps: ['replay'] }, async () => {
    const { fx, a, s } = ctx();
    const q = uniqueQueue('race');
    const id = await s.deadLetter({ task: 'ct.race', queue: q, reason: 'boom' });
    const b = fx.makeSecond();
    try {
      const [r1, r2] = await Promise.all([a.replayDead([id]), b.replayDead([id])]);
      const all = [...r1.succeeded, ...r1.failed, ...r2.succeeded, ...r2.failed];
      const ok = all.filter((o) => o.outcome === 'ok');
      expect(ok).toHaveLength(1);
      // The loser finds the letter gone, or (where letters stay) already replayed by the winner.
      const lost = all.filter((o) => o.outcome !== 'ok');
      expect(lost.map((o) => o.outcome)).toEqual([a.model.actions.replay.newTask ? 'already' : 'missing']);
      if (a.model.actions.replay.newTask) expect(lost[0]!.taskId).toBe(ok[0]!.taskId);
      expect(await s.claim(q)).toBe(taskOf(a, ok[0]!));
      expect(await s.claim(q)).toBeNull();
    } finally {
      await b.close();
    }
  });

  contractCase(ctx, 'discards dead letters and reports ids that are gone', { caps: ['discard'] }, async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('discard');
    const id = await s.deadLetter({ task: 'ct.x', queue: q, reason: 'boom' });
    const r = await a.discardDead([id, `missing-${randomUUID()}`]);
    expect(r.succeeded.map((o) => o.id)).toEqual([id]);
    expect(r.failed.map((o) => o.outcome)).toEqual(['missing']);
    expect(await s.isDead(id)).toBe(false);
    expect(await s.jobState(id)).toBeNull();
  });

  contractCase(
    ctx,
    'revokes a waiting task and refuses a running one, leaving it untouched',
    { caps: ['revoke'], lists: ['waiting', 'running'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('revoke');
      const both = await s.enqueueMany([
        { task: 'ct.rv', queue: q, priority: 1 },
        { task: 'ct.rv', queue: q, priority: 5 },
      ]);
      // Which one a worker takes first is the system's priority order.
      const running = await s.claim(q);
      expect(both).toContain(running);
      const waiting = both.find((x) => x !== running);
      const payloadBefore = await s.jobPayload(running!);
      const r = await a.revoke([waiting!, running!]);
      expect(r.succeeded.map((o) => o.id)).toEqual([waiting]);
      expect(r.failed).toEqual([{ id: running, outcome: 'running', message: expect.any(String) }]);
      expect(await s.jobState(waiting!)).toBeNull();
      expect(await s.jobState(running!)).toBe(keyOf(a, 'running'));
      expect(await s.jobPayload(running!)).toBe(payloadBefore);
    },
  );

  contractCase(
    ctx,
    'purges waiting tasks of one queue only, leaving running work and dead letters',
    { caps: ['purge'], lists: ['waiting', 'running'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('purge');
      const other = uniqueQueue('keep');
      await s.enqueueMany([
        { task: 'ct.p', queue: q },
        { task: 'ct.p', queue: q, priority: 3 },
        { task: 'ct.p', queue: q, countdown: 600 },
      ]);
      const running = await s.claim(q);
      const kept = await s.enqueue({ task: 'ct.p', queue: other });
      const letter = await s.deadLetter({ task: 'ct.p', queue: q, reason: 'boom' });
      const r = await a.purge(q);
      expect(r.removed).toBe(2);
      expect(await s.jobState(running!)).toBe(keyOf(a, 'running'));
      expect(await s.jobState(kept)).toBe(keyOf(a, 'waiting'));
      expect(await s.isDead(letter)).toBe(true);
    },
  );

  contractCase(
    ctx,
    'enqueues a task that a worker claims, scheduled when given a countdown',
    { caps: ['enqueue'], lists: ['waiting', 'scheduled'] },
    async () => {
      const { a, s } = ctx();
      const [waiting, scheduled] = [keyOf(a, 'waiting'), keyOf(a, 'scheduled')];
      const q = uniqueQueue('enqueue');
      const decl = a.model.actions.enqueue;
      const now = await a.enqueue(enqueueNow(decl, 'ct.e', q));
      expect(now).toMatchObject({ state: waiting, queue: q, task: 'ct.e' });
      expect(await s.jobState(now.id)).toBe(waiting);
      // Claimed before the later one exists: which a worker takes first is the system's order.
      expect(await s.claim(q)).toBe(now.id);
      const laterReq = enqueueLater(decl, 'ct.e', q);
      if (laterReq) {
        const later = await a.enqueue(laterReq);
        expect(later.state).toBe(scheduled);
        expect(await s.jobState(later.id)).toBe(scheduled);
      }
    },
  );

  contractCase(ctx, 'rejects bad enqueue input naming the field, and writes nothing', { caps: ['enqueue'] }, async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('bad');
    const wrong = enqueueWrongShapes(a.model.actions.enqueue);
    for (const [field, value] of [...wrong, ['no-such-field', '1'] as [string, unknown]]) {
      const err = await a.enqueue({ task: 'ct.bad', queue: q, fields: { [field]: value } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isConsoleError(err) && err.code).toBe('InvalidInput');
      expect(isConsoleError(err) && err.fields && Object.keys(err.fields)).toEqual([field]);
    }
    expect((await s.queueSizes())[q]).toBeUndefined();
  });
}
