import { describe, expect, it } from 'vitest';
import type { DeadSummary, ResultSummary, TaskSummary } from '@/lib/brokers/schema';
import { parseCsv } from '@/tests/support/csv';
import { DEAD_SHAPE, RESULT_SHAPE, TASK_SHAPE, csvCell, csvHeader, exportRow, truncatedLine } from './rows';

const letter = (over: Partial<DeadSummary> = {}): DeadSummary => ({
  id: 'dl-1',
  queue: 'emails',
  task: 'shop.send',
  summary: 'ValueError: bad, "quoted"',
  diedAt: '2026-12-04T14:02:31.000Z',
  preview: { kind: 'native', text: "('ada@example.com',)" },
  cause: null,
  ...over,
});

const task = (over: Partial<TaskSummary> = {}): TaskSummary => ({
  id: 't-1',
  queue: 'emails',
  task: 'shop.send',
  state: 'waiting',
  priority: '0',
  runAt: null,
  createdAt: '2026-12-04T14:00:00.000Z',
  claimedAt: null,
  worker: null,
  pid: null,
  deliveries: '0',
  preview: { kind: 'native', text: '(1,)' },
  seq: '1',
  ...over,
});

describe('export rows', () => {
  it('writes RFC 4180 CSV, quoting commas, quotes and line breaks', () => {
    expect(csvHeader(DEAD_SHAPE)).toBe('id,queue,task,diedAt,summary,cause,preview\r\n');
    expect(exportRow(DEAD_SHAPE, letter(), 'csv')).toBe(
      `dl-1,emails,shop.send,2026-12-04T14:02:31.000Z,"ValueError: bad, ""quoted""",,"('ada@example.com',)"\r\n`,
    );
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('keeps payload text with commas, quotes and line breaks in one cell that reads back unchanged', () => {
    const text = 'a, "b"\r\nc,\nd""';
    const [cells] = parseCsv(exportRow(TASK_SHAPE, task({ preview: { kind: 'native', text } }), 'csv'));
    expect(cells).toHaveLength(TASK_SHAPE.columns.length);
    expect(cells!.at(-1)).toBe(text);
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const lead of ['=', '+', '-', '@', '\t', '\r', '  =', ' @'])
      expect(parseCsv(`${csvCell(`${lead}SUM(A1)`)}\r\n`)[0]![0]).toBe(`'${lead}SUM(A1)`);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a=b')).toBe('a=b');
    const [cells] = parseCsv(exportRow(TASK_SHAPE, task({ task: '@evil', preview: { kind: 'native', text: '=cmd|"/c calc"!A1' } }), 'csv'));
    expect(cells![2]).toBe("'@evil");
    expect(cells!.at(-1)).toBe(`'=cmd|"/c calc"!A1`);
  });

  it('writes one JSON object per line with the same fields, text as it is', () => {
    const line = exportRow(DEAD_SHAPE, letter({ cause: 'non_retryable', summary: '=1+1\nnext' }), 'jsonl');
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      id: 'dl-1',
      queue: 'emails',
      task: 'shop.send',
      diedAt: '2026-12-04T14:02:31.000Z',
      summary: '=1+1\nnext',
      cause: 'non_retryable',
      preview: "('ada@example.com',)",
    });
  });

  it("exports a task's own times as one JSON cell and a result's fields with null as empty", () => {
    expect(csvHeader(TASK_SHAPE)).toBe(
      'id,queue,task,state,priority,createdAt,runAt,claimedAt,otherTimes,worker,pid,deliveries,preview\r\n',
    );
    const row = JSON.parse(exportRow(TASK_SHAPE, task({ times: { leaseUntil: '2026-12-04T15:00:00.000Z' } }), 'jsonl')) as Record<
      string,
      unknown
    >;
    expect(JSON.parse(row.otherTimes as string)).toEqual({ leaseUntil: '2026-12-04T15:00:00.000Z' });
    expect(JSON.parse(exportRow(TASK_SHAPE, task(), 'jsonl'))).toMatchObject({ otherTimes: null, worker: null });
    const r: ResultSummary = { id: 'r-1', status: 'SUCCESS', name: null, dateDone: '2026-12-04T14:01:00.000Z', expiresAt: null };
    expect(exportRow(RESULT_SHAPE, r, 'csv')).toBe('r-1,SUCCESS,,2026-12-04T14:01:00.000Z,\r\n');
  });

  it('says in the file where it stopped, in the words of the list', () => {
    expect(JSON.parse(truncatedLine('jsonl', 10, 'tasks'))).toMatchObject({ truncated: true, max: 10 });
    expect(truncatedLine('csv', 10, 'letters')).toMatch(/^# export stopped at 10 rows; more letters match/);
  });
});
