import { expect } from 'vitest';
import type { Diagnosis, StuckCheck, TypedValue } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { contractCase, keyOf, uniqueQueue, type Ctx } from './helpers';

// Stuck-work diagnosis: each check either finds what was seeded or says why it cannot look
// (`unknown` with a reason). A check that is neither is a broken adapter.

const run = (a: BrokerAdapter, overdueSeconds = 120): Promise<Diagnosis> => {
  if (!a.diagnose) throw new Error('the adapter has no diagnose()');
  return a.diagnose({ overdueSeconds, revoke: { on: true } });
};
const unknownWhy = (d: Diagnosis, check: StuckCheck) => d.unknown.find((u) => u.check === check)?.why ?? null;

export function registerStuck(ctx: Ctx): void {
  contractCase(
    ctx,
    'names waiting work that no live worker consumes, with what the console can and cannot do',
    { roles: ['waiting'] },
    async (skip) => {
      const { a, s } = ctx();
      if (!a.diagnose) return skip('the adapter does not diagnose stuck work');
      const q = uniqueQueue('idle');
      await s.enqueue({ task: 'ct.idle', queue: q });
      const d = await run(a);
      const why = unknownWhy(d, 'no-consumer');
      if (why) return void expect(why.length).toBeGreaterThan(10);
      const flag = d.flags.find((f) => f.check === 'no-consumer' && f.queue === q);
      // The link goes to the tab of the state that plays `waiting`: the work a worker may claim now.
      const waiting = keyOf(a, 'waiting');
      expect(flag).toMatchObject({ count: 1, link: { page: 'queue', queue: q, state: waiting } });
      expect(flag!.cause).toContain(q);
      expect(flag!.can.length).toBeGreaterThan(10);
      expect(flag!.cannot.length).toBeGreaterThan(10);
      // Where liveness comes from heartbeats (no consumer count of the broker's own), a live
      // worker on the queue clears it; a heartbeat is no consumer where the broker counts them.
      const stats = (await a.overview()).queues.find((x) => x.name === q);
      // A system without heartbeats in the broker has nothing more to show here.
      if ((stats?.consumers !== undefined && stats.consumers !== null) || !s.heartbeat) return;
      await s.heartbeat(`ct-worker-${q}`, { hostname: 'ct', pid: 1, queues: [q], concurrency: 1, running: [] }, 0);
      const after = await run(a);
      expect(after.flags.filter((f) => f.check === 'no-consumer' && f.queue === q)).toEqual([]);
    },
  );

  contractCase(ctx, "names a running task whose worker's heartbeat is gone, and never changes it", { roles: ['running'] }, async (skip) => {
    const { a, s, fx } = ctx();
    if (!a.diagnose) return skip('the adapter does not diagnose stuck work');
    if (fx.claimIsLease) return skip(fx.claimIsLease);
    const before = await run(a);
    const why = unknownWhy(before, 'worker-lost');
    if (why) return void expect(why.length).toBeGreaterThan(10);
    const q = uniqueQueue('lost');
    const id = await s.enqueue({ task: 'ct.lost', queue: q });
    expect(await s.claim(q)).toBe(id);
    const d = await run(a);
    const flag = d.flags.find((f) => f.check === 'worker-lost' && f.queue === q);
    if (fx.heldIdsUnknown) {
      // Counted on the queue, linked to its tab of held work: the broker does not name them.
      const held = keyOf(a, 'running');
      expect(flag).toMatchObject({ ids: [], count: 1, link: { page: 'queue', queue: q, state: held } });
    } else expect(flag).toMatchObject({ ids: [id], count: 1, link: { page: 'task', id } });
    expect(flag!.cannot).toMatch(/never changes running/i);
    expect(await s.jobState(id)).toBe(keyOf(a, 'running'));
  });

  contractCase(ctx, 'names scheduled work overdue past the threshold, and not before', { roles: ['scheduled'] }, async (skip) => {
    const { a, s } = ctx();
    if (!a.diagnose) return skip('the adapter does not diagnose stuck work');
    const before = await run(a, 1);
    const why = unknownWhy(before, 'overdue');
    if (why) return void expect(why.length).toBeGreaterThan(10);
    const q = uniqueQueue('late');
    const id = await s.enqueue({ task: 'ct.late', queue: q, countdown: 1 });
    expect((await run(a, 1)).flags.filter((f) => f.check === 'overdue' && f.queue === q)).toEqual([]);
    await new Promise((r) => setTimeout(r, 2600));
    const d = await run(a, 1);
    expect(d.overdueSeconds).toBe(1);
    expect(d.flags.find((f) => f.check === 'overdue' && f.queue === q)).toMatchObject({ ids: [id], count: 1, link: { page: 'task', id } });
    expect((await run(a, 3600)).flags.filter((f) => f.check === 'overdue' && f.queue === q)).toEqual([]);
  });
}

export function registerEditReplay(ctx: Ctx): void {
  contractCase(
    ctx,
    'replays a letter with edited typed arguments, kwargs, queue and priority as its adapter declares (same id or new)',
    { caps: ['replay'], roles: ['waiting'] },
    async (skip) => {
      const { a, s } = ctx();
      const decl = a.model.actions.replayEdited;
      if (!decl || !a.replayEdited || !a.previewReplayEdited) return skip('the adapter declares no replay with edits');
      const q = uniqueQueue('edit');
      const to = uniqueQueue('edited');
      await s.declareQueue?.(to);
      const id = await s.deadLetter({ task: 'ct.e', queue: q, reason: 'boom', args: [1], kwargs: { note: 'old' } });
      const args = [{ t: 'decimal' as const, v: '13.75' }];
      if (decl.noArgs)
        expect(await a.previewReplayEdited(id, { args }).catch((e: unknown) => e)).toMatchObject({
          code: 'InvalidInput',
          fields: { args: decl.noArgs },
        });
      const edit = {
        ...(decl.noArgs ? {} : { args }),
        kwargs: [['at', { t: 'datetime' as const, v: '2026-12-02T10:30:00+01:00', aware: true, epochMs: null }]] as Array<
          [string, TypedValue]
        >,
        queue: to,
        priority: 3,
      };
      // A bad value is refused naming the field, before anything is written: preview or replay.
      const badEdit = {
        kwargs: [['at', { t: 'datetime', v: 'tomorrow 9am', aware: false, epochMs: null }]] as Array<[string, TypedValue]>,
      };
      for (const bad of [
        await a.previewReplayEdited(id, badEdit).catch((e: unknown) => e),
        await a.replayEdited(id, badEdit).catch((e: unknown) => e),
      ])
        expect(bad).toMatchObject({ code: 'InvalidInput', fields: { 'kwargs.at': expect.stringContaining('date-time') } });
      expect(await s.isDead(id)).toBe(true);
      const p = await a.previewReplayEdited(id, edit);
      expect(p).toMatchObject({ id, sameId: decl.sameId, does: decl.does });
      expect(p.after).not.toBe(p.before);
      expect(await s.isDead(id)).toBe(true);
      const r = await a.replayEdited(id, edit);
      expect(r.outcome).toMatchObject({ id, outcome: 'ok' });
      expect(r.sameId).toBe(decl.sameId);
      if (decl.sameId) expect(r.newId).toBe(id);
      else expect(r.newId).not.toBe(id);
      expect(await s.isDead(id)).toBe(false);
      const runsAs = r.newId;
      // Where the seeder can see waiting work (not RabbitMQ for Celery), it is in the state that
      // plays `waiting`, with what the replay says it wrote; in every system a worker on the new
      // queue gets it.
      const state = await s.jobState(runsAs);
      if (state !== null) expect(state).toBe(keyOf(a, 'waiting'));
      // The same task: exactly the message the replay reports; a new job (QueueFlow): a job
      // whose payload has the edited value (`after` is the whole request that made it).
      const payload = await s.jobPayload(runsAs);
      if (payload !== null) {
        // What the replay reports having written holds the stored payload verbatim (potatoq: it
        // is the message; SDJ: the row's type, queue and priority around its args bytes).
        if (decl.sameId) expect(r.after).toContain(payload);
        else expect(payload).toContain('2026-12-02T10:30:00+01:00');
      }
      expect(await s.claim(to)).toBe(runsAs);
      // The letter is gone: a second replay of it is missing, never a duplicate.
      expect((await a.replayEdited(id, edit).catch((e: unknown) => e)) as object).toMatchObject({ code: 'NotFound' });
    },
  );
}
