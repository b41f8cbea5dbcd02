import { describe, expect, it } from 'vitest';
import { ZEnqueueRequest } from '@/lib/brokers/schema';
import { fieldsOfError } from '@/tests/support/invalid-fields';
import { UNIQUE_REFUSED } from './enqueue';
import { parseSdjEnqueue, SDJ_ENQUEUE } from './enqueue-fields';

const NOW = Date.parse('2026-01-02T03:04:05.000Z');
const parse = (body: Record<string, unknown>) => parseSdjEnqueue(ZEnqueueRequest.parse(body), NOW);

describe("SDJ's enqueue fields", () => {
  it("reads the form's text into the contract's values, with the library's defaults", () => {
    expect(parse({ task: 'send-email', fields: {} })).toEqual({
      type: 'send-email',
      queue: 'default',
      argsJson: '{}',
      priority: 0,
      maxRetries: 3,
      runAt: null,
    });
    expect(parse({ task: 't', queue: 'mail', fields: { args: '{"to":"a"}', priority: '-5', max_retries: '1' } })).toMatchObject({
      queue: 'mail',
      argsJson: '{"to":"a"}',
      priority: -5,
      maxRetries: 1,
    });
  });

  it('keeps the args JSON text as written, so a big int64 id stays exact', () => {
    expect(parse({ task: 't', fields: { args: ' {"id": 12345678901234567891} ' } }).argsJson).toBe('{"id": 12345678901234567891}');
    expect(parse({ task: 't', fields: { args: { a: [1] } } }).argsJson).toBe('{"a":[1]}');
  });

  it('sets run_at from a time with an offset, or from a delay by the given clock', () => {
    expect(parse({ task: 't', fields: { run_at: '2030-05-06T09:08:09+02:00' } }).runAt).toBe('2030-05-06T07:08:09.000Z');
    expect(parse({ task: 't', fields: { delay: '90.5' } }).runAt).toBe('2026-01-02T03:05:35.500Z');
    expect(parse({ task: 't', fields: { delay: '', run_at: '' } }).runAt).toBeNull();
  });

  it('names the field of each bad value', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ args: '[1]' }, 'args'],
      [{ args: '"text"' }, 'args'],
      [{ args: '{nope' }, 'args'],
      [{ priority: '1.5' }, 'priority'],
      [{ priority: '2147483648' }, 'priority'],
      [{ max_retries: '-1' }, 'max_retries'],
      [{ run_at: 'tomorrow' }, 'run_at'],
      [{ run_at: '2030-05-06T07:08:09' }, 'run_at'],
      [{ delay: '-1' }, 'delay'],
      [{ delay: 'soon' }, 'delay'],
      [{ kwargs: '{}' }, 'kwargs'],
    ];
    for (const [fields, key] of cases) expect(Object.keys(fieldsOfError(() => parse({ task: 't', fields })) ?? {}), key).toEqual([key]);
    expect(fieldsOfError(() => parse({ task: 't'.repeat(256), fields: {} }))).toEqual({ task: expect.stringContaining('255') });
    // (the shared request caps a queue name at 200 already; an adapter's caller may not have read it through)
    expect(fieldsOfError(() => parseSdjEnqueue({ task: 't', queue: 'q'.repeat(256), fields: {} }))).toEqual({
      queue: expect.stringContaining('255'),
    });
    expect(fieldsOfError(() => parse({ task: 't', fields: { run_at: '2030-01-01T00:00:00Z', delay: '5' } }))).toEqual({
      delay: expect.stringContaining('not both'),
    });
  });

  it("refuses a unique key with the contract's reason under its field", () => {
    expect(fieldsOfError(() => parse({ task: 't', fields: { unique_key: 'order-7' } }))).toEqual({ unique_key: UNIQUE_REFUSED });
    expect(parse({ task: 't', fields: { unique_key: '' } }).type).toBe('t');
  });

  it('declares a field for every key the schema reads, run at and delay as alternatives', () => {
    expect(SDJ_ENQUEUE.fields.map((f) => f.key)).toEqual(['args', 'priority', 'max_retries', 'run_at', 'delay', 'unique_key']);
    expect(SDJ_ENQUEUE.fields.filter((f) => f.exclusive === 'When').map((f) => f.key)).toEqual(['run_at', 'delay']);
    for (const f of SDJ_ENQUEUE.fields.filter((x) => x.default !== undefined))
      expect(() => parse({ task: 't', fields: { [f.key]: f.default } }), f.key).not.toThrow();
  });
});
