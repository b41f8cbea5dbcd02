import { describe, expect, it } from 'vitest';
import type { DeadSummary } from '@/lib/brokers/schema';
import { csvCell, csvHeader, deadRow, truncatedLine } from './rows';

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

describe('export rows', () => {
  it('writes RFC 4180 CSV, quoting commas, quotes and line breaks', () => {
    expect(csvHeader()).toBe('id,queue,task,diedAt,summary,cause,preview\r\n');
    expect(deadRow(letter(), 'csv')).toBe(
      `dl-1,emails,shop.send,2026-12-04T14:02:31.000Z,"ValueError: bad, ""quoted""",,"('ada@example.com',)"\r\n`,
    );
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const lead of ['+', '-', '@', '\t'])
      expect(csvCell(`${lead}1`).startsWith(`'${lead}`) || csvCell(`${lead}1`).startsWith(`"'`)).toBe(true);
    expect(csvCell('plain')).toBe('plain');
  });

  it('writes one JSON object per line with the same fields', () => {
    const line = deadRow(letter({ cause: 'non_retryable' }), 'jsonl');
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual({
      id: 'dl-1',
      queue: 'emails',
      task: 'shop.send',
      diedAt: '2026-12-04T14:02:31.000Z',
      summary: 'ValueError: bad, "quoted"',
      cause: 'non_retryable',
      preview: "('ada@example.com',)",
    });
  });

  it('says in the file where it stopped', () => {
    expect(JSON.parse(truncatedLine('jsonl', 10))).toMatchObject({ truncated: true, max: 10 });
    expect(truncatedLine('csv', 10)).toMatch(/^# export stopped at 10 rows/);
  });
});
