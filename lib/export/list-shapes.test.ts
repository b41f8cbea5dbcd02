import { describe, expect, it } from 'vitest';
import type { DeadGroup, WorkerInfo } from '@/lib/brokers/schema';
import type { Schedule } from '@/lib/brokers/schedule';
import type { WorkflowRun } from '@/lib/brokers/workflow-schema';
import { parseCsv } from '@/tests/support/csv';
import { GROUP_SHAPE, SCHEDULE_SHAPE, WORKER_SHAPE, WORKFLOW_SHAPE } from './list-shapes';
import { csvHeader, exportRow, partialLine } from './rows';

const group: DeadGroup = {
  fingerprint: 'fp-0123456789abcdef',
  pattern: 'CardDeclined: customer <uuid> declined, "code" <n>',
  excType: 'shop.CardDeclined',
  frame: 'shop/billing.py in charge',
  example: { id: 'dl-9', summary: '=HYPERLINK("x") declined' },
  count: 400,
  tasks: ['shop.charge', 'shop, "refund"'],
  queues: ['billing'],
  newestAt: '2026-12-04T14:02:31.000Z',
  oldestAt: '2026-12-04T13:00:00.000Z',
};

const worker: WorkerInfo = {
  id: 'potatoq@host:42:solo',
  hostname: 'host',
  pid: '42',
  queues: ['emails', 'billing'],
  concurrency: '1',
  threads: null,
  running: [],
  heartbeatAt: '2026-12-04T14:02:31.000Z',
  ageSeconds: 2.5,
  status: 'alive',
  registered: null,
};

const run: WorkflowRun = {
  id: '5f0c',
  name: 'order',
  status: 'failed',
  createdAt: '2026-12-04T14:00:00.000Z',
  startedAt: '2026-12-04T14:00:01.000Z',
  completedAt: null,
  error: 'step charge failed',
  retries: 1,
  stepCount: 5,
  parent: { id: 'p-1', step: 'fulfil' },
};

const schedule: Schedule = {
  id: 's-1',
  name: 'nightly',
  task: 'shop.report',
  queue: null,
  cron: '0 3 * * *',
  words: 'at 03:00',
  timeZone: 'UTC',
  paused: false,
  nextAt: '2026-12-05T03:00:00.000Z',
  last: { at: '2026-12-04T03:00:02.000Z', dueAt: null, jobId: 'j-7', state: 'failed', link: 'task', note: null },
  payload: '{"to":"ops"}',
  problems: [{ kind: 'failing', cause: 'the last firing failed', since: null }],
};

const jsonRow = <T>(shape: Parameters<typeof exportRow<T>>[0], row: T) =>
  JSON.parse(exportRow(shape, row, 'jsonl')) as Record<string, unknown>;

describe('export rows of the groups, workers, workflows and schedules lists', () => {
  it('writes a group with its count, first and last seen and sample reason; lists as JSON', () => {
    expect(csvHeader(GROUP_SHAPE)).toBe(
      'fingerprint,count,pattern,excType,frame,tasks,queues,firstSeen,lastSeen,exampleId,exampleReason\r\n',
    );
    const [cells] = parseCsv(exportRow(GROUP_SHAPE, group, 'csv'));
    expect(cells).toEqual([
      'fp-0123456789abcdef',
      '400',
      group.pattern,
      'shop.CardDeclined',
      'shop/billing.py in charge',
      '["shop.charge","shop, \\"refund\\""]',
      '["billing"]',
      '2026-12-04T13:00:00.000Z',
      '2026-12-04T14:02:31.000Z',
      'dl-9',
      `'=HYPERLINK("x") declined`,
    ]);
    expect(jsonRow(GROUP_SHAPE, group)).toMatchObject({ count: 400, tasks: group.tasks, exampleReason: group.example.summary });
  });

  it('writes a worker with numbers as numbers and unknowns as empty / null', () => {
    expect(exportRow(WORKER_SHAPE, worker, 'csv')).toBe(
      'potatoq@host:42:solo,alive,host,42,"[""emails"",""billing""]",1,,[],2026-12-04T14:02:31.000Z,2.5,\r\n',
    );
    expect(jsonRow(WORKER_SHAPE, worker)).toEqual(worker);
  });

  it('flattens a run’s parent and keeps its error text', () => {
    expect(csvHeader(WORKFLOW_SHAPE)).toBe(
      'id,name,status,createdAt,startedAt,completedAt,retries,stepCount,parentId,parentStep,error\r\n',
    );
    expect(exportRow(WORKFLOW_SHAPE, run, 'csv')).toBe(
      '5f0c,order,failed,2026-12-04T14:00:00.000Z,2026-12-04T14:00:01.000Z,,1,5,p-1,fulfil,step charge failed\r\n',
    );
    expect(jsonRow(WORKFLOW_SHAPE, { ...run, parent: null })).toMatchObject({ parentId: null, parentStep: null, retries: 1 });
  });

  it('flattens a schedule’s last firing and problems, paused as a yes/no', () => {
    const row = jsonRow(SCHEDULE_SHAPE, schedule);
    expect(row).toMatchObject({ paused: false, lastAt: schedule.last!.at, lastJobId: 'j-7', lastState: 'failed' });
    expect(row.problems).toEqual(['failing: the last firing failed']);
    const [cells] = parseCsv(exportRow(SCHEDULE_SHAPE, { ...schedule, last: null, paused: null }, 'csv'));
    expect(cells!.slice(7, 12)).toEqual(['', '2026-12-05T03:00:00.000Z', '', '', '']);
    expect(cells!.at(-1)).toBe('{"to":"ops"}');
  });

  it('says in the file when the list itself covered only part of what it lists', () => {
    expect(JSON.parse(partialLine('jsonl', 'Grouped the newest 10 of 12'))).toEqual({ partial: true, note: 'Grouped the newest 10 of 12' });
    expect(partialLine('csv', 'Grouped the newest 10 of 12, say')).toBe('"# Grouped the newest 10 of 12, say"\r\n');
  });
});
