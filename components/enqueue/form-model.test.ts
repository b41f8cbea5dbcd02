import { describe, expect, it } from 'vitest';
import type { EnqueueDecl } from '@/lib/brokers/schema';
import { checkForm, errorFor, initialValues, toRequest, unplaced } from './form-model';

// A system unlike potatoq (QueueFlow-shaped): the form is whatever the adapter declares.
const DECL: EnqueueDecl = {
  does: 'Creates one job.',
  defaultQueue: 'jobs',
  fields: [
    { key: 'payload', kind: 'json-object', label: 'Payload', default: '{}', required: true },
    { key: 'max_attempts', kind: 'integer', label: 'Max attempts', min: 1, max: 25 },
    { key: 'run_at', kind: 'datetime', label: 'Run at', exclusive: 'When', schedules: true },
    { key: 'delay', kind: 'duration', label: 'Delay', min: 0, exclusive: 'When', schedules: true },
    { key: 'idempotency_key', kind: 'text', label: 'Idempotency key', advanced: true },
  ],
};

describe('the enqueue form model', () => {
  it('starts from the declared defaults and sends only given, chosen fields', () => {
    const v = initialValues(DECL);
    expect(v).toMatchObject({ queue: 'jobs', values: { payload: '{}', max_attempts: '' }, chosen: { When: '' } });
    const typed = { ...v, task: ' send ', values: { ...v.values, run_at: '2030-01-02T03:04', delay: '5' } };
    expect(toRequest(DECL, typed)).toEqual({ task: 'send', queue: 'jobs', fields: { payload: '{}' } });
    const at = toRequest(DECL, { ...typed, chosen: { When: 'run_at' } });
    expect(Object.keys(at.fields)).toEqual(['payload', 'run_at']);
    expect(at.fields.run_at).toBe(new Date('2030-01-02T03:04').toISOString());
  });

  it('checks what the declaration says: required, whole numbers within bounds, a real datetime', () => {
    const v = { ...initialValues(DECL), task: 't' };
    expect(checkForm(DECL, v)).toEqual({ ok: true });
    const bad = checkForm(DECL, {
      ...v,
      task: '',
      chosen: { When: 'run_at' },
      values: { payload: ' ', max_attempts: '2.5', run_at: 'tomorrow 9am', delay: '' },
    });
    expect(bad).toEqual({
      ok: false,
      fields: {
        task: 'task name is required',
        payload: 'Payload is required',
        max_attempts: 'not a whole number',
        run_at: 'not a valid date and time',
      },
    });
    expect(checkForm(DECL, { ...v, values: { ...v.values, max_attempts: '26' } })).toEqual({
      ok: false,
      fields: { max_attempts: 'at most 25' },
    });
    // An unchosen alternative is not checked (and not sent).
    expect(checkForm(DECL, { ...v, values: { ...v.values, delay: '-1' } })).toEqual({ ok: true });
  });

  it('puts an error under the input whose path it names, with the rest of the path', () => {
    const f = { 'payload.when': 'not a valid datetime', payload: 'too big', other: 'x', _: 'broker says no' };
    expect(errorFor('payload', f)).toBe('too big\nwhen: not a valid datetime');
    expect(errorFor('pay', f)).toBeNull();
    expect(unplaced(f, ['payload'])).toEqual(['other: x', 'broker says no']);
  });
});
