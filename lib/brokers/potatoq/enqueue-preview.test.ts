import { describe, expect, it } from 'vitest';
import { ZEnqueueInput } from '@/lib/brokers/enqueue-input';
import { isConsoleError } from '@/lib/brokers/errors';
import { parsePotatoqEnqueue } from './enqueue-fields';
import { potatoqCall, previewPotatoqEnqueue } from './enqueue-preview';

const req = (input: Record<string, unknown>) => ZEnqueueInput.parse(input);
const fields = (input: Record<string, unknown>) => parsePotatoqEnqueue(req(input));

describe("potatoq's enqueue preview", () => {
  it('builds the message enqueue writes, scheduled when it has an eta, and writes nothing', () => {
    const p = previewPotatoqEnqueue('b', req({ task: 'app.add', queue: 'q1', args: '[1, 12345678901234567890123]' }), 1_700_000_000);
    expect(p).toMatchObject({ brokerId: 'b', queue: 'q1', task: 'app.add', state: 'ready', preview: true });
    expect(p.payload).toContain('"args":[1,12345678901234567890123]');
    expect(previewPotatoqEnqueue('b', req({ task: 't', countdown: '60' }), 1_700_000_000).state).toBe('scheduled');
  });

  it('names the field of a value the message cannot carry', () => {
    let err: unknown;
    try {
      previewPotatoqEnqueue('b', req({ task: 't', args: '{"not": "a list"}' }));
    } catch (e) {
      err = e;
    }
    expect(isConsoleError(err) && err.code).toBe('InvalidInput');
    expect(Object.keys((err as { fields?: Record<string, string> }).fields ?? {})).toEqual(['args']);
  });

  it('names the path of a malformed tagged value inside kwargs, not args', () => {
    const fieldsOf = (input: Record<string, unknown>) => {
      try {
        previewPotatoqEnqueue('b', req(input));
      } catch (e) {
        return isConsoleError(e) ? e.fields : undefined;
      }
      return undefined;
    };
    expect(Object.keys(fieldsOf({ task: 't', kwargs: '{"who": {"__potatoq__": "uuid", "v": "nope"}}' }) ?? {})).toEqual(['kwargs.who']);
    expect(fieldsOf({ task: 't', fields: { kwargs: { at: { __potatoq__: 'datetime', v: 'tomorrow 9am' } } } })?.['kwargs.at']).toMatch(
      /^"tomorrow 9am" is not a valid datetime/,
    );
    expect(Object.keys(fieldsOf({ task: 't', args: '[1, {"__potatoq__": "uuid", "v": 1}]' }) ?? {})).toEqual(['args.1']);
  });

  it("gives potatoq's call with JSON args, kwargs, queue and countdown, quoted, and what it cannot set", () => {
    expect(potatoqCall(fields({ task: 'app.add', args: '[1, 2]', kwargs: '{"x": "it\'s"}', queue: 'q1', countdown: 30 }))).toEqual({
      line: `potatoq call app.add -a '[1, 2]' -k '{"x": "it'\\''s"}' -Q q1 --countdown 30`,
      missing: [],
    });
    expect(potatoqCall(fields({ task: 't', priority: 5, eta: '2030-01-01T00:00:00+00:00', headers: '{"h": 1}' }))).toEqual({
      line: 'potatoq call t -Q default',
      missing: ['priority', 'eta', 'headers'],
    });
  });
});
