import { expect } from 'vitest';
import type { TaskListQuery } from '@/lib/brokers/schema';
import { contractCase, keyOf, tasks, uniqueQueue, type Ctx } from './helpers';

type Range = Partial<Pick<TaskListQuery, 'since' | 'until'>>;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The ids a list gives one page at a time: the range holds across the cursor, and the last
 *  page says it is last. Sorted: each state has its own order, tested elsewhere. */
async function pagedIds(ctx: Ctx, state: string, queue: string, r: Range): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10; i++) {
    const page = await tasks(ctx().a, { state, queue, limit: 1, cursor, ...r });
    out.push(...page.items.map((t) => t.id));
    if (!page.nextCursor) return out.sort();
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

export function registerTaskRange(ctx: Ctx): void {
  contractCase(
    ctx,
    'filters waiting and scheduled tasks by when they were enqueued (since inclusive, until exclusive)',
    { caps: ['taskRange'], lists: ['waiting'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('trange');
      const waiting = keyOf(a, 'waiting');
      // A second apart, so even a store that keeps whole seconds tells them apart.
      const first = await s.enqueue({ task: 'ct.trange', queue: q });
      await pause(1_100);
      const second = await s.enqueue({ task: 'ct.trange', queue: q });
      await pause(1_100);
      const third = await s.enqueue({ task: 'ct.trange', queue: q });
      const listed = (await tasks(a, { state: waiting, queue: q, limit: 10 })).items;
      const at = (id: string) => listed.find((t) => t.id === id)?.createdAt ?? undefined;
      for (const id of [first, second, third]) expect(at(id), 'each task says when it was enqueued').toEqual(expect.any(String));
      const ids = (r: Range) => pagedIds(ctx, waiting, q, r);
      // At a task's own enqueued time: `since` takes it, `until` leaves it out.
      expect(await ids({ since: at(second) })).toEqual([second, third].sort());
      expect(await ids({ until: at(second) })).toEqual([first]);
      expect(await ids({ since: at(first), until: at(third) })).toEqual([first, second].sort());
      expect(await ids({ since: '10m' })).toEqual([first, second, third].sort());
      expect(await ids({ until: '1h' })).toEqual([]);

      // A scheduled task is ranged by when it was enqueued too (not by its eta, the list's order).
      const sched = a.model.states.find((st) => st.role === 'scheduled');
      const caps = await a.capabilities();
      if (!sched || !caps[`list:${sched.key}`]?.on) return;
      const later = await s.enqueue({ task: 'ct.trange', queue: q, countdown: 3600 });
      const inSched = (r: Range) => pagedIds(ctx, sched.key, q, r);
      expect(await inSched({ since: '10m' })).toEqual([later]);
      expect(await inSched({ since: at(third) })).toEqual([later]);
      expect(await inSched({ until: at(third) })).toEqual([]);
    },
  );
}
