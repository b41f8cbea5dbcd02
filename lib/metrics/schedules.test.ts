import { describe, expect, it } from 'vitest';
import { renderSchedules } from './schedules';

const schedule = (name: string, kinds: Array<'missed' | 'failing'>) => ({
  id: name,
  name,
  task: 't',
  queue: null,
  cron: '* * * * *',
  words: 'every minute UTC',
  timeZone: 'UTC',
  paused: false,
  nextAt: null,
  last: { at: '2026-12-04T10:00:00.000Z', dueAt: null, jobId: null, state: null, link: null, note: null },
  payload: null,
  problems: kinds.map((kind) => ({ kind, cause: 'c', since: null })),
});

describe('schedule series', () => {
  it('one series per problem kind, read status per broker, nothing for a broker that failed', async () => {
    const text = await renderSchedules([
      {
        broker: 'qf',
        list: { schedules: [schedule('ok', []), schedule('bad', ['missed', 'missed', 'failing'])], capped: false, notes: [], readAt: '' },
        error: null,
      },
      { broker: 'down', list: null, error: 'BrokerUnavailable' },
    ]);
    expect(text).toContain('potatoq_console_schedules_read{broker="qf"} 1');
    expect(text).toContain('potatoq_console_schedules_read{broker="down"} 0');
    expect(text).toContain('potatoq_console_schedules{broker="qf"} 2');
    expect(text).toContain('potatoq_console_schedule_problem{broker="qf",schedule="bad",kind="missed"} 1');
    expect(text).toContain('potatoq_console_schedule_problem{broker="qf",schedule="bad",kind="failing"} 1');
    expect(text).not.toContain('schedule="ok",kind');
    expect(text).toContain('potatoq_console_schedule_last_fire_timestamp_seconds{broker="qf",schedule="ok"} 1796378400');
  });
});
