import { describe, expect, it } from 'vitest';
import { ZEnqueueInput, ZPurgeRequest } from './schemas';

describe('ZEnqueueInput', () => {
  it('keeps JSON text exactly as given, so big integers survive', () => {
    const r = ZEnqueueInput.parse({ task: 't', args: '[123456789012345678901234567890, NaN]' });
    expect(r.args).toBe('[123456789012345678901234567890, NaN]');
    expect(r.queue).toBe('default');
    expect(r.kwargs).toBe('{}');
  });
  it('accepts JSON values for args, kwargs and headers and re-serialises them', () => {
    const r = ZEnqueueInput.parse({
      task: 't',
      args: [1, 'a'],
      kwargs: { x: { __potatoq__: 'date', v: '2026-01-02' } },
      headers: { h: 1 },
    });
    expect(r.args).toBe('[1,"a"]');
    expect(JSON.parse(r.kwargs)).toEqual({ x: { __potatoq__: 'date', v: '2026-01-02' } });
    expect(r.headers).toBe('{"h":1}');
  });
  it('treats empty form fields as not given', () => {
    const r = ZEnqueueInput.parse({ task: 't', countdown: '', priority: '', queue: '', eta: '', expires: '' });
    expect(r).toMatchObject({ priority: 0, queue: 'default' });
    expect(r.countdown).toBeUndefined();
    expect(r.eta).toBeUndefined();
  });
  it('refuses a countdown together with an eta, naming the eta field', () => {
    const r = ZEnqueueInput.safeParse({ task: 't', countdown: 5, eta: '2030-01-01T00:00:00Z' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['eta']);
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
