// A list's rows as CSV or JSON lines for export: the same fields the list shows (arguments only
// as their preview, which redaction has already hidden when it is on). Pure, for tests.
import type { DeadSummary } from '@/lib/brokers/schema';

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The columns of a dead-letter export, in order. */
export const DEAD_COLUMNS = ['id', 'queue', 'task', 'diedAt', 'summary', 'cause', 'preview'] as const;

const cellOf = (d: DeadSummary, c: (typeof DEAD_COLUMNS)[number]): string | null => {
  switch (c) {
    case 'preview':
      return d.preview.text;
    case 'cause':
      return d.cause ?? null;
    default:
      return d[c];
  }
};

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A cell a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`:
 * a task's error text or arguments must not become a formula on the operator's machine.
 */
export function csvCell(v: string | null): string {
  if (v === null) return '';
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvHeader = (): string => `${DEAD_COLUMNS.join(',')}\r\n`;

export function deadRow(d: DeadSummary, format: ExportFormat): string {
  if (format === 'jsonl') return `${JSON.stringify(Object.fromEntries(DEAD_COLUMNS.map((c) => [c, cellOf(d, c)])))}\n`;
  return `${DEAD_COLUMNS.map((c) => csvCell(cellOf(d, c))).join(',')}\r\n`;
}

/** The last line when the export stopped at its limit: said in the file, not only in a header. */
export function truncatedLine(format: ExportFormat, max: number): string {
  const text = `export stopped at ${max} rows; more letters match (narrow the filter or raise max up to the console's limit)`;
  return format === 'jsonl' ? `${JSON.stringify({ truncated: true, max, note: text })}\n` : `${csvCell(`# ${text}`)}\r\n`;
}
