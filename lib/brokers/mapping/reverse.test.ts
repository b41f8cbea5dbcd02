import { describe, expect, it } from 'vitest';
import type { ValueLetter } from '@/lib/brokers/types';
import { BACK_NOT_CARRIED, backId, backPreview, callOfLetter, mappingBack } from './reverse';
import { ZCallMapping, type CallMappingInput } from './schema';

const map = (over: Partial<CallMappingInput> = {}) =>
  ZCallMapping.parse({ source: 'c', target: 'q', task: 'billing.charge', targetTask: 'charge', args: ['order', 'amount'], ...over });
const letter = (over: Partial<ValueLetter> = {}): ValueLetter => ({
  id: '17',
  jobId: '6f1c2a3e-0000-4000-8000-000000000001',
  task: 'charge',
  queue: 'billing',
  payload: { order: 7, amount: '1.50', note: 'x' },
  priority: 3,
  ...over,
});

describe('a named-payload dead letter back to a positional call', () => {
  it("finds the mapping by its target task (the source task's own name when it names none)", () => {
    const a = map();
    const b = map({ task: 'mail.send', targetTask: undefined });
    expect(mappingBack([a, b], 'charge')).toBe(a);
    expect(mappingBack([a, b], 'mail.send')).toBe(b);
    expect(mappingBack([a, b], 'billing.charge')).toBeNull();
  });

  it("becomes the source task's call under the job's id: mapped keys positional, the rest kwargs, the job's queue and priority", () => {
    const r = callOfLetter(map(), letter());
    expect(r).toMatchObject({
      ok: true,
      value: {
        id: backId(letter()),
        task: 'billing.charge',
        queue: 'billing',
        priority: 3,
        args: {
          k: 'list',
          items: [
            { k: 'int', text: '7' },
            { k: 'str', v: '1.50' },
          ],
        },
        kwargs: { k: 'dict', entries: [['note', { k: 'str', v: 'x' }]] },
        etaMs: null,
        expiresMs: null,
      },
    });
    expect(backId(letter())).toBe('6f1c2a3e-0000-4000-8000-000000000001');
  });

  it('takes the queue the target routes the task to when the mapping sends every job to one queue, else names the problem', () => {
    const m = map({ queue: 'qf-billing' });
    expect(callOfLetter(m, letter(), 'celery-billing')).toMatchObject({ ok: true, value: { queue: 'celery-billing' } });
    const r = callOfLetter(m, letter(), null);
    expect(r).toEqual({ ok: false, problems: { queue: expect.stringMatching(/sends every billing.charge to queue qf-billing/) } });
  });

  it('names a missing payload key (no default) and a job with no payload object, converting nothing', () => {
    expect(callOfLetter(map(), letter({ payload: { order: 7 } }))).toEqual({
      ok: false,
      problems: { 'payload.amount': expect.stringMatching(/no payload key "amount" for positional argument 1/) },
    });
    expect(callOfLetter(map({ defaults: { amount: '0' } }), letter({ payload: { order: 7 } }))).toMatchObject({ ok: true });
    expect(callOfLetter(map(), letter({ payload: [1, 2] }))).toEqual({ ok: false, problems: { payload: 'the job has no payload object' } });
  });

  it('previews the letter beside the exact call it becomes (Python reprs, task id = job id), or its problems and no call', () => {
    const job = { jobId: letter().jobId, task: 'charge', queue: 'billing', payload: letter().payload, priority: 3 };
    expect(backPreview(letter(), callOfLetter(map(), letter()))).toEqual({
      letter: job,
      call: {
        id: '6f1c2a3e-0000-4000-8000-000000000001',
        task: 'billing.charge',
        queue: 'billing',
        args: "[7, '1.50']",
        kwargs: "{'note': 'x'}",
        priority: 3,
      },
      problems: {},
      notCarried: BACK_NOT_CARRIED,
      notes: [],
    });
    const missing = letter({ payload: { order: 7, '<b>': 1 } });
    const r = backPreview(missing, callOfLetter(map({ queue: 'qf-billing' }), missing, null));
    expect(r.call).toBeNull();
    expect(r.letter?.payload).toEqual({ order: 7, '<b>': 1 });
    expect(Object.keys(r.problems).sort()).toEqual(['payload.amount', 'queue']);
    expect(r.notCarried).toEqual([]);
  });
});
