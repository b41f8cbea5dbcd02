import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { contractCase, dead, TRACEBACK, uniqueQueue, type Ctx } from './helpers';

export function registerDead(ctx: Ctx): void {
  contractCase(ctx, 'reads a dead letter as the call it was, for a move to another broker', { caps: ['browseDead'] }, async (skip) => {
    const { a, s } = ctx();
    if (!a.exportCall || !a.model.calls || !('does' in a.model.calls.export)) return skip('this broker declares no move out');
    const q = uniqueQueue('call');
    const id = await s.deadLetter({
      task: 'ct.call',
      queue: q,
      args: [7, 'x', 2.5],
      kwargs: { k: null },
      reason: TRACEBACK('ValueError: no'),
    });
    const call = await a.exportCall(id);
    expect(call).toMatchObject({ id, task: 'ct.call', queue: q });
    expect(call!.args).toEqual({
      k: 'list',
      items: [
        { k: 'int', text: '7' },
        { k: 'str', v: 'x' },
        { k: 'float', v: 2.5 },
      ],
    });
    expect(call!.kwargs).toEqual({ k: 'dict', entries: [['k', { k: 'none' }]] });
    expect(await a.exportCall(randomUUID())).toBeNull();
    // Reading changes nothing: the letter is still there.
    expect(await a.getDead(id)).toMatchObject({ id });
  });

  contractCase(
    ctx,
    'tells whether a task with an id is here, as a move checks it, without writing',
    { caps: ['browseDead'] },
    async (skip) => {
      const { a, s } = ctx();
      if (!a.importCall || !a.model.calls || !('does' in a.model.calls.import))
        return skip('this broker takes no calls from other brokers');
      expect(typeof a.findCall, 'an importing adapter answers findCall() for a move after an unfinished one').toBe('function');
      expect(await a.findCall!(randomUUID())).toBeNull();
      const id = await s.deadLetter({ task: 'ct.found', queue: uniqueQueue('found'), reason: TRACEBACK('ValueError: here') });
      expect(await a.findCall!(id)).toEqual(expect.stringMatching(/.{10,}/));
      expect(await a.getDead(id)).toMatchObject({ id });
    },
  );

  contractCase(
    ctx,
    'lists dead letters newest first with the reason line potatoq shows, and pages them',
    { caps: ['browseDead'] },
    async () => {
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
    },
  );

  contractCase(
    ctx,
    'groups dead letters by error fingerprint (ids and numbers normalised) and filters by group',
    { caps: ['browseDead'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('groups');
      const k1 = await s.deadLetter({ task: 'ct.g1', queue: q, reason: TRACEBACK("KeyError: 'sku-1' in cart 17"), diedAgo: 30 });
      const k2 = await s.deadLetter({ task: 'ct.g2', queue: q, reason: TRACEBACK("KeyError: 'sku-99' in cart 4242") });
      const lone = await s.deadLetter({ task: 'ct.g1', queue: q, reason: TRACEBACK('TypeError: nope') });
      const groups = (await a.deadGroups({ queue: q })).groups;
      expect(groups.map((g) => [g.pattern, g.count])).toEqual([
        ['KeyError: <str> in cart <n>', 2],
        ['TypeError: nope', 1],
      ]);
      expect(groups[0]!.tasks).toEqual(['ct.g1', 'ct.g2']);
      expect(groups[0]!.frame).toBe('app/tasks.py in boom');
      expect(groups[0]!.example).toEqual({ id: k2, summary: "KeyError: 'sku-99' in cart 4242" });
      expect((await dead(a, { queue: q, group: groups[0]!.fingerprint })).items.map((d) => d.id).sort()).toEqual([k1, k2].sort());
      expect((await dead(a, { queue: q, group: groups[1]!.fingerprint })).items.map((d) => d.id)).toEqual([lone]);
      expect((await dead(a, { queue: q, q: 'TypeError' })).items.map((d) => d.id)).toEqual([lone]);
    },
  );

  contractCase(
    ctx,
    'says what its groups cover: every letter of a small queue, each counted once, and no note',
    { caps: ['browseDead'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('scope');
      for (const n of [1, 2, 3]) await s.deadLetter({ task: 'ct.sc', queue: q, reason: TRACEBACK(`ValueError: order ${n} late`) });
      await s.deadLetter({ task: 'ct.sc', queue: q, reason: TRACEBACK('KeyError: sku') });
      const { groups, scope } = await a.deadGroups({ queue: q });
      expect(groups.map((g) => g.count)).toEqual([3, 1]);
      // `grouped` is the letters in the groups; complete, the adapter has nothing to say.
      expect(scope).toEqual({ grouped: 4, complete: true });
      const empty = await a.deadGroups({ queue: uniqueQueue('scope-none') });
      expect(empty).toEqual({ groups: [], scope: { grouped: 0, complete: true } });
    },
  );

  contractCase(
    ctx,
    'counts letters that share one reason text, with the newest as example and first/last seen',
    { caps: ['browseDead'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('same-reason');
      const reason = TRACEBACK('ConnectionError: db down');
      await s.deadLetter({ task: 'ct.s1', queue: q, reason, diedAgo: 40 });
      await s.deadLetter({ task: 'ct.s2', queue: q, reason, diedAgo: 20 });
      await s.deadLetter({ task: 'ct.s1', queue: q, reason });
      const [g, ...rest] = (await a.deadGroups({ queue: q })).groups;
      expect(rest).toEqual([]);
      expect([g!.pattern, g!.count, g!.tasks]).toEqual(['ConnectionError: db down', 3, ['ct.s1', 'ct.s2']]);
      // First/last seen and the example are those of the letters themselves.
      const letters = (await dead(a, { queue: q, group: g!.fingerprint })).items;
      expect(letters).toHaveLength(3);
      const times = letters.map((d) => Date.parse(d.diedAt!));
      expect([Date.parse(g!.oldestAt!), Date.parse(g!.newestAt!)]).toEqual([Math.min(...times), Math.max(...times)]);
      const example = letters.find((d) => d.id === g!.example.id);
      expect(example && Date.parse(example.diedAt!)).toBe(Math.max(...times));
      expect(g!.example.summary).toBe('ConnectionError: db down');
    },
  );

  contractCase(
    ctx,
    'searches reasons and messages, or reasons only when asked (argument redaction)',
    { caps: ['browseDead'] },
    async () => {
      const { a, s } = ctx();
      const q = uniqueQueue('qin');
      const inArgs = await s.deadLetter({ task: 'ct.s', queue: q, reason: TRACEBACK('ValueError: declined'), args: ['card-4111-secret'] });
      const inReason = await s.deadLetter({ task: 'ct.s', queue: q, reason: TRACEBACK('ValueError: card-4111 expired') });
      const ids = async (qIn?: 'all' | 'reason') =>
        (await dead(a, { queue: q, q: '4111', ...(qIn ? { qIn } : {}) })).items.map((d) => d.id).sort();
      expect(await ids()).toEqual([inArgs, inReason].sort());
      expect(await ids('all')).toEqual([inArgs, inReason].sort());
      expect(await ids('reason')).toEqual([inReason]);
    },
  );

  contractCase(ctx, 'shows a dead letter with its full reason and decoded payload', { caps: ['browseDead'] }, async () => {
    const { a, s } = ctx();
    const q = uniqueQueue('deaddetail');
    const reason = TRACEBACK('ValueError: boom');
    const id = await s.deadLetter({ task: 'ct.dd', queue: q, reason, args: [1] });
    const d = await a.getDead(id);
    expect(d?.reason).toBe(reason);
    expect(d?.summary).toBe('ValueError: boom');
    expect(d?.payload.foreign).toBeNull();
    expect(d?.payload.task).toBe('ct.dd');
    expect(await a.getDead(`missing-${randomUUID()}`)).toBeNull();
  });

  contractCase(
    ctx,
    "reads one stored result by id (a dead-lettered task's FAILURE), null for an id without one",
    { caps: ['browseDead', 'results'] },
    async (skip) => {
      const { a, s } = ctx();
      if (a.model.actions.replay.newTask)
        return skip("letters have ids of their own here, not their task's: a result is looked up by the task's id");
      const id = await s.deadLetter({ task: 'ct.res', queue: uniqueQueue('result'), reason: TRACEBACK('ValueError: for the record') });
      const r = await a.getResult(id);
      expect(r?.id).toBe(id);
      expect(r?.status).toBe((await s.result(id))?.status);
      expect(await a.getResult(`missing-${randomUUID()}`)).toBeNull();
    },
  );
}
