import { describe, expect, it } from 'vitest';
import type { QfJob } from './wire';
import { editedCreate } from './edit-replay';

const job = {
  id: 'j1',
  queue_name: 'mail',
  task_name: 'send',
  payload: { at: 'not yet', n: 1 },
  config: {
    max_retries: 2,
    timeout_secs: 300,
    priority: 1,
    retry_backoff: 'fixed',
    retry_delay_secs: 5,
    retry_max_delay_secs: 60,
    jitter_factor: 0.1,
  },
  status: 'failed',
  created_at: '2026-12-01T00:00:00Z',
  delivery_count: 1,
  retry_count: 0,
} as unknown as QfJob;
const fields = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { fields?: Record<string, string> }).fields;
  }
  throw new Error('no error');
};

describe('QueueFlow edit and replay: the create request', () => {
  it("keeps the letter's task and settings (timeout_secs as the request's timeout) and applies the edit", () => {
    const { before, after } = editedCreate(job, {
      kwargs: [
        ['at', { t: 'datetime', v: '2026-12-02T10:30:00+01:00', aware: true, epochMs: null }],
        ['amount', { t: 'decimal', v: '2.50' }],
        ['who', { t: 'uuid', v: '12345678-1234-5678-1234-567812345678' }],
      ],
      queue: 'mail-fixed',
      priority: 9,
    });
    expect(before).toEqual({
      task_name: 'send',
      payload: { at: 'not yet', n: 1 },
      config: {
        queue: 'mail',
        max_retries: 2,
        timeout: 300,
        priority: 1,
        retry_backoff: 'fixed',
        retry_delay_secs: 5,
        retry_max_delay_secs: 60,
        jitter_factor: 0.1,
      },
    });
    expect(after).toEqual({
      ...before,
      payload: { at: '2026-12-02T10:30:00+01:00', amount: '2.50', who: '12345678-1234-5678-1234-567812345678' },
      config: { ...before.config, queue: 'mail-fixed', priority: 9 },
    });
  });

  it("keeps the payload's key order, new keys after, whatever order the edit lists them in", () => {
    const { after } = editedCreate({ ...job, payload: { to: 'a@b', n: 1, at: 'x' } } as QfJob, {
      kwargs: [
        ['extra', { t: 'bool', v: true }],
        ['at', { t: 'str', v: 'x' }],
        ['n', { t: 'int', v: '2' }],
        ['to', { t: 'str', v: 'a@b' }],
      ],
    });
    expect(JSON.stringify(after.payload)).toBe('{"to":"a@b","n":2,"at":"x","extra":true}');
    // A key the edit removed is gone; the others keep their places.
    const { after: less } = editedCreate({ ...job, payload: { to: 'a@b', n: 1, at: 'x' } } as QfJob, {
      kwargs: [
        ['at', { t: 'str', v: 'x' }],
        ['to', { t: 'str', v: 'a@b' }],
      ],
    });
    expect(JSON.stringify(less.payload)).toBe('{"to":"a@b","at":"x"}');
  });

  it('refuses positional args and what JSON has no type for, naming the field', () => {
    expect(fields(() => editedCreate(job, { args: [{ t: 'int', v: '1' }] }))).toEqual({
      args: expect.stringContaining('no positional arguments'),
    });
    expect(fields(() => editedCreate(job, { kwargs: [['b', { t: 'bytes', base64: 'aGk=', size: 2 }]] }))).toEqual({
      'kwargs.b': expect.stringContaining('no bytes'),
    });
    expect(fields(() => editedCreate(job, { kwargs: [['at', { t: 'datetime', v: 'soon', aware: false, epochMs: null }]] }))).toEqual({
      'kwargs.at': expect.stringContaining('date-time'),
    });
    expect(fields(() => editedCreate(job, { kwargs: [['n', { t: 'int', v: '99999999999999999999' }]] }))).toEqual({
      'kwargs.n': expect.stringContaining('too large'),
    });
  });
});
