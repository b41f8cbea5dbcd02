import { describe, expect, it } from 'vitest';
import { ZEnqueueInput } from '@/lib/brokers/enqueue-input';
import { fieldsOfError } from '@/tests/support/invalid-fields';
import { POTATOQ_ENQUEUE, parsePotatoqEnqueue } from './enqueue-fields';

const parse = (body: Record<string, unknown>) => parsePotatoqEnqueue(ZEnqueueInput.parse(body));

describe("potatoq's enqueue fields", () => {
  it('keeps JSON text exactly as given, so big integers survive', () => {
    const r = parse({ task: 't', fields: { args: '[123456789012345678901234567890, NaN]' } });
    expect(r.args).toBe('[123456789012345678901234567890, NaN]');
    expect(r.queue).toBe('default');
    expect(r.kwargs).toBe('{}');
  });

  it('accepts JSON values for args, kwargs and headers and re-serialises them', () => {
    const r = parse({
      task: 't',
      fields: { args: [1, 'a'], kwargs: { x: { __potatoq__: 'date', v: '2026-01-02' } }, headers: { h: 1 } },
    });
    expect(r.args).toBe('[1,"a"]');
    expect(JSON.parse(r.kwargs)).toEqual({ x: { __potatoq__: 'date', v: '2026-01-02' } });
    expect(r.headers).toBe('{"h":1}');
  });

  it('reads the older flat body the same as fields', () => {
    const flat = parse({ task: 't', queue: 'q', args: '[1]', priority: 3, countdown: '60', reason: 'why' });
    expect(flat).toEqual(parse({ task: 't', queue: 'q', fields: { args: '[1]', priority: 3, countdown: '60' } }));
    expect(flat).toMatchObject({ args: '[1]', priority: 3, countdown: 60, queue: 'q' });
  });

  it('treats empty form fields as not given', () => {
    const r = parse({ task: 't', queue: '', fields: { countdown: '', priority: '', eta: '', expires: '' } });
    expect(r).toMatchObject({ priority: 0, queue: 'default' });
    expect(r.countdown).toBeUndefined();
    expect(r.eta).toBeUndefined();
  });

  it('refuses a countdown together with an eta, naming the eta field', () => {
    expect(fieldsOfError(() => parse({ task: 't', fields: { countdown: 5, eta: '2030-01-01T00:00:00Z' } }))).toEqual({
      eta: 'give either a countdown or an eta, not both',
    });
  });

  it('refuses a field potatoq does not take, naming it', () => {
    const f = fieldsOfError(() => parse({ task: 't', fields: { max_retries: 3 } }));
    expect(Object.keys(f ?? {})).toEqual(['max_retries']);
    expect(f?.max_retries).toMatch(/^potatoq's enqueue has no field "max_retries" \(it takes args, kwargs,/);
  });

  it('refuses out-of-bounds numbers under their field', () => {
    expect(Object.keys(fieldsOfError(() => parse({ task: 't', fields: { priority: '1.5' } })) ?? {})).toEqual(['priority']);
    expect(Object.keys(fieldsOfError(() => parse({ task: 't', fields: { countdown: '-1' } })) ?? {})).toEqual(['countdown']);
  });

  it('declares every field its schema takes, with unique keys and the defaults the schema applies', () => {
    const keys = POTATOQ_ENQUEUE.fields.map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    const defaults = Object.fromEntries(POTATOQ_ENQUEUE.fields.flatMap((f) => (f.default === undefined ? [] : [[f.key, f.default]])));
    expect(parse({ task: 't', fields: defaults })).toEqual(parse({ task: 't' }));
    // Each declared key is accepted (no "has no field" refusal).
    for (const k of keys) expect(fieldsOfError(() => parse({ task: 't', fields: { [k]: '' } }))).toBeUndefined();
  });
});

describe("the form's request on potatoq", () => {
  it('writes the same bytes as the older flat body for the same values', async () => {
    const { buildFromRequest } = await import('./records');
    const { initialValues, toRequest } = await import('@/components/enqueue/form-model');
    const v = initialValues(POTATOQ_ENQUEUE);
    const form = toRequest(POTATOQ_ENQUEUE, {
      ...v,
      task: 'app.add',
      queue: 'q1',
      chosen: { When: 'countdown' },
      values: {
        ...v.values,
        args: '[1, 12345678901234567890123]',
        kwargs: '{"at": {"__potatoq__": "date", "v": "2026-12-24"}}',
        priority: '3',
        countdown: '60',
        headers: '{"h": 1}',
      },
    });
    const flat = {
      task: 'app.add',
      queue: 'q1',
      args: '[1, 12345678901234567890123]',
      kwargs: '{"at": {"__potatoq__": "date", "v": "2026-12-24"}}',
      priority: 3,
      countdown: 60,
      headers: '{"h": 1}',
    };
    const build = (body: unknown) =>
      buildFromRequest(ZEnqueueInput.parse(body), 1_700_000_000).json.replace(/"(id|root_id)":"[^"]*"/g, '"$1":"x"');
    expect(build(form)).toBe(build(flat));
    expect(build(form)).toBe(
      '{"task":"app.add","args":[1,12345678901234567890123],"kwargs":{"at":{"__potatoq__":"date","v":"2026-12-24"}},"id":"x","queue":"q1","priority":3,"eta":1700000060.0,"root_id":"x","headers":{"h":1},"enqueued_at":1700000000.0,"v":1}',
    );
  });
});
