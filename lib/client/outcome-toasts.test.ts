import { describe, expect, it } from 'vitest';
import type { ActionResult } from '@/lib/brokers/schema';
import { MAX_FAILURE_TOASTS, PER_TASK_TOASTS, toastsFor, toastsForResult } from './outcome-toasts';

const result = (ok: string[], bad: string[], action: ActionResult['action'] = 'replay'): ActionResult => ({
  action,
  brokerId: 'b',
  requested: ok.length + bad.length,
  succeeded: ok.map((id) => ({ id, outcome: 'ok', message: '' })),
  failed: bad.map((id) => ({ id, outcome: 'conflict', message: `${id} is running` })),
});

describe('action outcome toasts', () => {
  it('gives each task of a small action its own toast, failures as errors with the reason', () => {
    const t = toastsFor({ ok: true, data: result(['a', 'b'], ['c'], 'revoke') });
    expect(t.map((x) => [x.tone, x.title])).toEqual([
      ['success', 'a: revoked'],
      ['success', 'b: revoked'],
      ['error', 'c: not revoked (conflict)'],
    ]);
    expect(t[2]!.body).toBe('c is running');
  });

  it('summarises a large action and lists only the first failures', () => {
    const ok = Array.from({ length: 10 }, (_, i) => `ok${i}`);
    const bad = Array.from({ length: 7 }, (_, i) => `bad${i}`);
    const t = toastsFor({ ok: true, data: result(ok, bad) });
    expect(t).toHaveLength(1 + MAX_FAILURE_TOASTS);
    expect(t[0]).toMatchObject({ tone: 'info', title: '10 of 17 tasks replayed' });
    expect(t[0]!.body).toContain('7 not replayed');
    expect(t.slice(1).map((x) => x.title)).toEqual([
      'bad0: not replayed (conflict)',
      'bad1: not replayed (conflict)',
      'bad2: not replayed (conflict)',
    ]);
  });

  it('switches from per-task toasts to a summary just past the limit', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    expect(toastsFor({ ok: true, data: result(ids(PER_TASK_TOASTS), []) })).toHaveLength(PER_TASK_TOASTS);
    expect(toastsFor({ ok: true, data: result(ids(PER_TASK_TOASTS + 1), []) })).toEqual([
      { tone: 'success', title: '6 of 6 tasks replayed', body: undefined },
    ]);
  });

  it('uses the caller’s verb, and words purge and enqueue answers', () => {
    expect(toastsFor({ ok: true, data: result(['x'], []) }, 'converted and replayed')[0]!.title).toBe('x: converted and replayed');
    expect(toastsFor({ ok: true, data: { brokerId: 'b', queue: 'mail', removed: 1 } })).toEqual([
      { tone: 'success', title: 'Purged 1 waiting task from queue mail' },
    ]);
    expect(toastsFor({ ok: true, data: { brokerId: 'b', queue: 'mail', removed: 1200 } })[0]!.title).toBe(
      'Purged 1,200 waiting tasks from queue mail',
    );
    const enq = toastsFor({ ok: true, data: { brokerId: 'b', id: 'abc', queue: 'q', task: 'app.t', state: 'scheduled', payload: '{}' } });
    expect(enq).toEqual([{ tone: 'success', title: 'abc: enqueued as scheduled', body: 'app.t in queue q' }]);
    // An enqueue the system answered with its earlier task (an idempotency key it has seen).
    const again = toastsFor({
      ok: true,
      data: {
        brokerId: 'b',
        id: 'abc',
        queue: 'q',
        task: 'app.t',
        state: 'ready',
        payload: '{}',
        outcome: { id: 'abc', outcome: 'already', message: 'already exists as job abc' },
      },
    });
    expect(again).toEqual([{ tone: 'info', title: 'abc: done before, not enqueued again', body: 'already exists as job abc' }]);
  });

  it('toasts refusals, but not field errors, which show inline', () => {
    expect(toastsFor({ ok: false, error: { code: 'Forbidden', message: 'viewers cannot revoke' } })).toEqual([
      { tone: 'error', title: 'Refused: Forbidden', body: 'viewers cannot revoke' },
    ]);
    expect(toastsFor({ ok: false, error: { code: 'InvalidInput', message: 'bad', fields: { args: 'not JSON' } } })).toEqual([]);
  });
});

describe('an outcome that was done before', () => {
  it('is an info toast with the system message, not an error', () => {
    const r = {
      action: 'replay' as const,
      brokerId: 'qf',
      requested: 1,
      succeeded: [],
      failed: [{ id: '7', outcome: 'already' as const, message: 'already replayed as job abc', taskId: 'abc' }],
    };
    expect(toastsForResult(r)).toEqual([
      { tone: 'info', title: '7: done before, not replayed again', body: 'already replayed as job abc' },
    ]);
  });
});
