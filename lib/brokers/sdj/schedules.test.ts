import { describe, expect, it } from 'vitest';
import { ZScheduleList } from '@/lib/brokers/schedule';
import { scheduleCaps } from '@/lib/brokers/schedule-model';
import { SDJ_MODEL } from './broker-model';
import { MAX_SCHEDULES, SDJ_SCHEDULES, sdjSchedule, sdjScheduleList } from './schedules';

// Rows as the drivers return them: PostgreSQL's timestamptz text in a UTC session, MySQL's
// DATETIME(3) text (dateStrings).
const PG = (t: string) => `${t}+00`;

describe("SDJ's scheduled_fires rows", () => {
  it('shows a fired schedule with its boundary, no job, no expression and no problem', () => {
    const s = sdjSchedule({ name: 'nightly-report', last_fire_at: PG('2026-12-04 03:00:00'), last_fired_at: PG('2026-12-04 03:00:00') });
    expect(s).toEqual({
      id: 'nightly-report',
      name: 'nightly-report',
      task: null,
      queue: null,
      cron: null,
      words: "the schedule is in the Go application's code; only its last firing is recorded here",
      timeZone: null,
      paused: null,
      nextAt: null,
      last: {
        at: '2026-12-04T03:00:00Z',
        dueAt: '2026-12-04T03:00:00Z',
        jobId: null,
        state: null,
        link: null,
        note: expect.stringMatching(/boundary it was due at.*no job id is recorded/),
      },
      payload: null,
      problems: [],
    });
  });

  it('shows a seeded schedule that never fired as registered, with no last firing', () => {
    const s = sdjSchedule({ name: 'every-5m', last_fire_at: '2026-12-04 10:00:01.250', last_fired_at: null });
    expect(s.last).toBeNull();
    expect(s.words).toBe(
      'no firing recorded: a worker registered it at 2026-12-04T10:00:01.250Z (the anchor its first firing counts from), and it has not fired since',
    );
    expect(s.problems).toEqual([]);
  });

  it("treats a claim's epoch placeholder as no time, and names a cursor that differs from the firing", () => {
    expect(sdjSchedule({ name: 'x', last_fire_at: '1970-01-01 00:00:00.000', last_fired_at: null }).words).toMatch(/no anchor/);
    const odd = sdjSchedule({ name: 'y', last_fire_at: PG('2026-12-04 04:00:00'), last_fired_at: PG('2026-12-04 03:00:00') });
    expect(odd.last?.at).toBe('2026-12-04T03:00:00Z');
    expect(odd.words).toMatch(/cursor last_fire_at says 2026-12-04T04:00:00Z/);
  });

  it('lists the most recently fired first and the never-fired last, as a valid DTO', () => {
    const list = sdjScheduleList(
      [
        { name: 'b-seeded', last_fire_at: PG('2026-12-04 10:00:00'), last_fired_at: null },
        { name: 'old', last_fire_at: PG('2026-12-01 00:00:00'), last_fired_at: PG('2026-12-01 00:00:00') },
        { name: 'a-seeded', last_fire_at: PG('2026-12-04 09:00:00'), last_fired_at: null },
        { name: 'new', last_fire_at: PG('2026-12-04 11:00:00.123456'), last_fired_at: PG('2026-12-04 11:00:00.123456') },
      ],
      { capped: false, now: Date.parse('2026-12-04T12:00:00Z') },
    );
    expect(list.schedules.map((s) => s.name)).toEqual(['new', 'old', 'a-seeded', 'b-seeded']);
    expect(list.schedules[0]!.last!.at).toBe('2026-12-04T11:00:00.123456Z');
    expect(list).toMatchObject({ capped: false, notes: [], readAt: '2026-12-04T12:00:00.000Z' });
    expect(ZScheduleList.parse(list)).toEqual(list);
  });

  it('says when the read stopped at its cap', () => {
    const list = sdjScheduleList([], { capped: true });
    expect(list.capped).toBe(true);
    expect(list.notes).toEqual([`only the first ${MAX_SCHEDULES} schedule names (in name order) were read`]);
  });
});

describe("SDJ's schedules declaration", () => {
  it('is read-only, with what the console cannot see', () => {
    expect(SDJ_MODEL.schedules).toBe(SDJ_SCHEDULES);
    expect(SDJ_SCHEDULES.actions).toEqual({});
    expect(scheduleCaps(SDJ_MODEL)).toEqual({
      schedules: { on: true },
      'schedules:write': { on: false, why: 'the console can only read the schedules of this system' },
    });
    const cannot = SDJ_SCHEDULES.cannotSee.join('\n');
    for (const re of [/Go application's code/, /Firings before the last/, /no job id/, /Missed firings/]) expect(cannot).toMatch(re);
  });
});
