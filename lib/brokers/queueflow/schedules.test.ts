import { describe, expect, it } from 'vitest';
import { problemsOf, scheduleOf, type QfCron } from './schedules';

const NOW = Date.parse('2026-12-04T12:00:00Z');
const cron = (over: Partial<QfCron> = {}): QfCron => ({
  id: 'c1',
  name: 'nightly',
  cron_expr: '*/5 * * * *',
  task_name: 'echo',
  payload: {},
  config: undefined,
  queue_name: undefined,
  last_enqueued_at: undefined,
  enabled: true,
  next_run_at: '2026-12-04T12:05:00Z',
  created_at: '2026-12-01T00:00:00Z',
  ...over,
});

describe("QueueFlow schedules' problems", () => {
  it('says a due firing the server has not made is missed, not a paused one', () => {
    const due = cron({ next_run_at: '2026-12-04T11:50:00Z' });
    expect(problemsOf(due, null, NOW)).toMatchObject([{ kind: 'missed', cause: expect.stringMatching(/no server is running/) }]);
    expect(problemsOf({ ...due, enabled: false }, null, NOW)).toEqual([]);
  });

  it("flags a job still pending and a failed last firing, with the job's error", () => {
    const c = cron({ last_enqueued_at: '2026-12-04T11:50:00Z' });
    const pending = scheduleOf(c, { id: 'j', status: 'pending', metadata: { cron_id: 'c1' } } as never, true, NOW);
    expect(pending.problems).toMatchObject([{ kind: 'missed', cause: expect.stringMatching(/no worker consumes queue default/) }]);
    const failed = scheduleOf(c, { id: 'j', status: 'failed', error_message: 'boom', metadata: {} } as never, true, NOW);
    expect(failed.problems).toMatchObject([{ kind: 'failing', cause: "its last firing's job failed: boom" }]);
    expect(failed.last).toMatchObject({ jobId: 'j', link: 'result' });
  });

  it('shows an expression it cannot read in words as such, never as an error', () => {
    expect(scheduleOf(cron({ cron_expr: '0 0 12 ? * MON#2' }), null, false, NOW).words).toMatch(/not read by the console/);
  });
});
