import { describe, expect, it } from 'vitest';
import { ZEnqueueInput, ZPurgeRequest } from './schemas';

describe('ZEnqueueInput', () => {
  it('takes task, queue and the field values as given (the adapter reads them)', () => {
    const r = ZEnqueueInput.parse({ task: ' t ', queue: 'q', fields: { args: '[1]', n: 2 }, reason: 'why' });
    expect(r).toEqual({ task: 't', queue: 'q', fields: { args: '[1]', n: 2 } });
  });
  it('turns the older flat body into fields, and an empty queue into "not given"', () => {
    expect(ZEnqueueInput.parse({ task: 't', queue: '', args: '[1]', countdown: '', reason: 'why' })).toEqual({
      task: 't',
      fields: { args: '[1]', countdown: '' },
    });
  });
  it('refuses field values both beside and inside fields, naming the stray key', () => {
    const r = ZEnqueueInput.safeParse({ task: 't', fields: {}, args: '[1]' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['args']);
  });
  it('requires a task name', () => {
    expect(ZEnqueueInput.safeParse({ task: '  ', fields: {} }).error?.issues[0]?.path).toEqual(['task']);
  });
});

describe('ZPurgeRequest', () => {
  it('requires the confirmation to repeat the queue name exactly', () => {
    expect(ZPurgeRequest.safeParse({ queue: 'emails', confirm: 'emails' }).success).toBe(true);
    const bad = ZPurgeRequest.safeParse({ queue: 'emails', confirm: 'Emails' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['confirm']);
  });
});
