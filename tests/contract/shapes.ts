// One case that reads every kind of answer once on seeded data (a waiting task, a dead letter
// with its result): the battery's adapter checks each answer against its DTO definition
// exactly (dto-check.ts), so a system whose other cases are skipped is still checked.
import { expect } from 'vitest';
import { listingOf } from '@/lib/brokers/dto';
import { contractCase, dead, keyOf, tasks, TRACEBACK, uniqueQueue, type Ctx } from './helpers';
import { enqueueNow } from './enqueue-sample';

export function registerDtoShapes(ctx: Ctx): void {
  contractCase(ctx, 'answers each read with exactly the fields its DTO definition names', { roles: ['waiting'] }, async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('dto');
    const id = await s.enqueue({ task: 'ct.dto', queue: q, args: [1, 'two', 3.5], kwargs: { k: [true, null] } });
    const caps = await a.capabilities();
    const o = await a.overview();
    expect(o.queues.map((x) => x.name)).toContain(q);
    for (const st of a.model.states) {
      if (!listingOf(caps, st.key).on) continue;
      await tasks(a, { queue: q, state: st.key });
    }
    // A waiting task is read by id where its state can be listed (RabbitMQ cannot without taking it).
    if (listingOf(caps, keyOf(a, 'waiting')).on) expect(await a.getTask(id)).toMatchObject({ id, queue: q });
    if (caps.browseDead.on) {
      const letter = await s.deadLetter({ task: 'ct.dto', queue: q, args: [2], reason: TRACEBACK('ValueError: dto') });
      expect((await dead(a, { queue: q })).items.map((d) => d.id)).toContain(letter);
      expect(await a.getDead(letter)).toMatchObject({ id: letter });
      expect((await a.deadGroups({ queue: q })).scope.grouped).toBeGreaterThan(0);
      if (caps.results.on) await a.getResult(letter);
    }
    if (caps.results.on) await a.listResults({ status: undefined, limit: 10 });
    if (caps.workers.on) await a.listWorkers();
    await a.taskNames();
    if (a.taskQueues) await a.taskQueues();
    if (a.diagnose) await a.diagnose({ overdueSeconds: 120, revoke: { on: true } });
    if (caps.enqueue.on) await a.previewEnqueue(enqueueNow(a.model.actions.enqueue, 'ct.dto', q));
  });
}
