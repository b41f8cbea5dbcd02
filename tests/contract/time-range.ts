import { expect } from 'vitest';
import { ZDeadGroupsQuery, ZDeadListQuery, ZResultListQuery, type DeadListQuery } from '@/lib/brokers/schema';
import { contractCase, dead, TRACEBACK, uniqueQueue, type Ctx } from './helpers';

type Range = Partial<Pick<DeadListQuery, 'since' | 'until'>>;

export function registerTimeRange(ctx: Ctx): void {
  contractCase(
    ctx,
    'filters dead letters by when they died (since inclusive, until exclusive) on every page',
    { caps: ['browseDead', 'deadRange'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('range');
      const letter = (tag: string, diedAgo?: number) =>
        s.deadLetter({ task: 'ct.range', queue: q, reason: TRACEBACK(`ValueError: ${tag}`), ...(diedAgo ? { diedAgo } : {}) });
      const old = await letter('old', 3 * 3600);
      const mid = await letter('mid', 1800);
      const later = await letter('later', 1500);
      const young = await letter('young');
      // One letter a page: the range holds across the cursor and the last page says it is last.
      const ids = async (r: Range) => {
        const out: string[] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 10; i++) {
          const page = await dead(a, { queue: q, limit: 1, cursor, ...r });
          out.push(...page.items.map((d) => d.id));
          if (!page.nextCursor) return out;
          cursor = page.nextCursor;
        }
        throw new Error('paging did not end');
      };
      expect(await ids({ since: '1h' })).toEqual([young, later, mid]);
      expect(await ids({ until: '1h' })).toEqual([old]);
      expect(await ids({ since: '2h', until: '10m' })).toEqual([later, mid]);
      expect(await ids({ since: '5m' })).toEqual([young]);
      expect(await ids({ until: '5h' })).toEqual([]);
      // At a letter's own died time: `since` takes it, `until` leaves it out.
      const at = (await dead(a, { queue: q, limit: 10 })).items.find((d) => d.id === mid)?.diedAt;
      expect(at, 'the letter says when it died').toEqual(expect.any(String));
      expect(await ids({ since: at!, until: '10m' })).toEqual([later, mid]);
      expect(await ids({ since: '4h', until: at! })).toEqual([old]);
      // Without any other filter (Redis: a plain score range, no walk), other tests' letters may
      // share the broker: ours are in or out.
      const unfiltered = async (r: Range) => new Set((await dead(a, { limit: 200, ...r })).items.map((d) => d.id));
      const recent = await unfiltered({ since: '1h' });
      expect([young, later, mid].every((id) => recent.has(id)) && !recent.has(old)).toBe(true);
      const earlier = await unfiltered({ since: '4h', until: '1h' });
      expect(earlier.has(old) && ![young, later, mid].some((id) => earlier.has(id))).toBe(true);
      // A one-pass snapshot (a bulk job's) honours the same range.
      if (a.deadIds) {
        const snap = await a.deadIds(ZDeadListQuery.parse({ queue: q, since: '2h', until: '10m' }), 100);
        expect(snap).toEqual({ ids: [later, mid], capped: false });
      }
    },
  );

  contractCase(
    ctx,
    'groups only the dead letters that died in the range, counted in it',
    { caps: ['browseDead', 'deadRange'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('grange');
      const letter = (tag: string, diedAgo?: number) =>
        s.deadLetter({ task: 'ct.grange', queue: q, reason: TRACEBACK(`KeyError: ${tag}`), ...(diedAgo ? { diedAgo } : {}) });
      await letter('old', 3 * 3600);
      const newerOld = await letter('old', 3 * 3600 - 60);
      await letter('young');
      const groups = async (r: Range) => (await a.deadGroups(ZDeadGroupsQuery.parse({ queue: q, ...r }))).groups;
      const counts = async (r: Range) => Object.fromEntries((await groups(r)).map((g) => [g.pattern, g.count]));
      const all = await counts({});
      expect(Object.values(all).sort()).toEqual([1, 2]);
      const [oldPattern] = Object.entries(all).find(([, n]) => n === 2)!;
      const [youngPattern] = Object.entries(all).find(([, n]) => n === 1)!;
      expect(await counts({ since: '1h' })).toEqual({ [youngPattern]: 1 });
      expect(await counts({ until: '1h' })).toEqual({ [oldPattern]: 2 });
      expect(await counts({ since: '5h', until: '4h' })).toEqual({});
      // The group's example (its newest letter) and times are of its letters in the range.
      const [g] = await groups({ since: '4h', until: '1h' });
      expect(g?.example.id).toBe(newerOld);
      expect(Date.parse(g!.newestAt!)).toBeLessThan(Date.now() - 2 * 3600_000);
      const scope = (await a.deadGroups(ZDeadGroupsQuery.parse({ queue: q, since: '1h' }))).scope;
      expect(scope).toMatchObject({ grouped: 1, complete: true });
    },
  );

  contractCase(
    ctx,
    'filters results by when their task finished (a dead letter’s task finished when it died)',
    { caps: ['browseDead', 'results', 'resultRange'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('rrange');
      const old = await s.deadLetter({ task: 'ct.rrange', queue: q, reason: TRACEBACK('ValueError: old'), diedAgo: 3 * 3600 });
      const young = await s.deadLetter({ task: 'ct.rrange', queue: q, reason: TRACEBACK('ValueError: young') });
      // Results have no queue filter: other tests' results may share the broker, ours are in or out.
      const ids = async (r: Range) => new Set((await a.listResults(ZResultListQuery.parse({ limit: 500, ...r }))).items.map((i) => i.id));
      const recent = await ids({ since: '1h' });
      expect([recent.has(young), recent.has(old)]).toEqual([true, false]);
      const earlier = await ids({ since: '4h', until: '1h' });
      expect([earlier.has(young), earlier.has(old)]).toEqual([false, true]);
    },
  );
}
