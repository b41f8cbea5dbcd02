import { describe, expect, it } from 'vitest';
import { mapDetail, TEXT_CAP } from './workflows-map';
import { ZQfStepState, ZQfWorkflow, type QfStepState } from './workflows-wire';

// Parsed as the server's answers are (lib/brokers/queueflow/workflows-wire.ts).
const wf = (over: Record<string, unknown> = {}) =>
  ZQfWorkflow.parse({
    id: '0b6f3c8e-5d2a-4f7e-9a41-2c8d7e6f5a10',
    name: 'order',
    status: 'partially_failed',
    created_at: '2026-12-04T10:00:00Z',
    retry_count: 0,
    steps: [
      { name: 'a', task_name: 'shop.a', depends_on: [], payload: { html: '<script>x()</script>' } },
      { name: 'b', task_name: 'shop.b', depends_on: ['a'], on_failure: 'continue' },
      { name: 'c', task_name: 'shop.c', depends_on: ['b'] },
      { name: 'side', task_name: 'shop.side', depends_on: ['a'], when: { path: 'a.go' } },
    ],
    context: { seed: 1, a: { big: 'x'.repeat(TEXT_CAP + 10) } },
    ...over,
  });
const st = (x: Record<string, unknown>): QfStepState => ZQfStepState.parse(x);
const states: QfStepState[] = [
  st({ name: 'a', status: 'completed', job_id: 'j-a', started_at: '2026-12-04T10:00:00Z', completed_at: '2026-12-04T10:00:02Z' }),
  st({ name: 'b', status: 'failed', job_id: 'j-b', error: 'boom' }),
  st({ name: 'c', status: 'skipped', error: 'a dependency did not complete' }),
  st({ name: 'side', status: 'skipped', error: 'condition not met' }),
];

describe("QueueFlow's workflow run as the view draws it", () => {
  it('keeps payloads and results as JSON text, cuts big results and separates the seed context', () => {
    const d = mapDetail(wf(), states, true, new Date('2026-12-04T10:01:00Z'));
    const a = d.steps[0]!;
    expect(a.payload).toContain('"<script>x()</script>"');
    expect(a.resultCut).toBe(true);
    expect(a.result!.length).toBe(TEXT_CAP);
    expect(a.seconds).toBe(2);
    expect(JSON.parse(d.context!)).toEqual({ seed: 1 });
  });

  it('blocks what follows the failed step, not what its condition skipped, and resets only what did not complete', () => {
    const d = mapDetail(wf(), states, true, new Date());
    expect(d.failedSteps).toEqual(['b']);
    expect(d.steps.map((s) => [s.name, s.blockedBy])).toEqual([
      ['a', null],
      ['b', null],
      ['c', 'b'],
      ['side', null],
    ]);
    expect(d.retry).toEqual({ on: true, resets: ['b', 'c'] });
  });

  it('says why a run QueueFlow would not retry cannot be, and reads a step with a job as scheduled', () => {
    const d = mapDetail(wf({ status: 'running' }), [st({ name: 'a', status: 'pending', job_id: 'j' })], false, new Date());
    expect(d.retry).toMatchObject({ on: false, why: expect.stringContaining('running') });
    expect(d.steps[0]).toMatchObject({ status: 'pending', detail: 'scheduled' });
    expect(d.steps[1]).toMatchObject({ status: 'pending', detail: null, jobId: null });
  });
});
