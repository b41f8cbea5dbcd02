// A list's rows as CSV or JSON lines for export: the same fields the list shows (arguments only
// as their preview, which redaction has already hidden when it is on). Pure, for tests.
import type { DeadSummary, ResultSummary, TaskSummary } from '@/lib/brokers/schema';

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One cell's value: text, a number or a yes/no as JSON has them, a list of names (a JSON array
 *  in JSON lines, the array's JSON text in a CSV cell), null for an empty cell / JSON null. */
export type Cell = string | number | boolean | null | readonly string[];

/** One exported column: its header and how a row fills it. */
export type Column<T> = readonly [name: string, cell: (row: T) => Cell];

/** What one list exports: its columns, in order, and what its rows are called in words. */
export interface ExportShape<T> {
  /** File name prefix and audit word ("dead", "tasks", "results"). */
  list: string;
  noun: string;
  columns: ReadonlyArray<Column<T>>;
}

export const DEAD_SHAPE: ExportShape<DeadSummary> = {
  list: 'dead',
  noun: 'letters',
  columns: [
    ['id', (d) => d.id],
    ['queue', (d) => d.queue],
    ['task', (d) => d.task],
    ['diedAt', (d) => d.diedAt],
    ['summary', (d) => d.summary],
    ['cause', (d) => d.cause ?? null],
    ['preview', (d) => d.preview.text],
  ],
};

/** Tasks of one state: the common times, then the system's own (`times`) as one JSON cell. */
export const TASK_SHAPE: ExportShape<TaskSummary> = {
  list: 'tasks',
  noun: 'tasks',
  columns: [
    ['id', (t) => t.id],
    ['queue', (t) => t.queue],
    ['task', (t) => t.task],
    ['state', (t) => t.state],
    ['priority', (t) => t.priority],
    ['createdAt', (t) => t.createdAt],
    ['runAt', (t) => t.runAt],
    ['claimedAt', (t) => t.claimedAt],
    ['otherTimes', (t) => (t.times && Object.keys(t.times).length ? JSON.stringify(t.times) : null)],
    ['worker', (t) => t.worker],
    ['pid', (t) => t.pid],
    ['deliveries', (t) => t.deliveries],
    ['preview', (t) => t.preview.text],
  ],
};

export const RESULT_SHAPE: ExportShape<ResultSummary> = {
  list: 'results',
  noun: 'results',
  columns: [
    ['id', (r) => r.id],
    ['status', (r) => r.status],
    ['name', (r) => r.name],
    ['dateDone', (r) => r.dateDone],
    ['expiresAt', (r) => r.expiresAt],
  ],
};

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A cell a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first, also after leading
 * spaces, which some spreadsheets skip) gets a leading `'`: a task's error text or arguments
 * must not become a formula on the operator's machine.
 */
export function csvCell(v: string | null): string {
  if (v === null) return '';
  const safe = /^[=+\-@\t\r]|^ +[=+\-@]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const cellText = (v: Cell): string | null =>
  v === null || typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);

export const csvHeader = <T>(shape: ExportShape<T>): string => `${shape.columns.map(([name]) => name).join(',')}\r\n`;

export function exportRow<T>(shape: ExportShape<T>, row: T, format: ExportFormat): string {
  if (format === 'jsonl') return `${JSON.stringify(Object.fromEntries(shape.columns.map(([name, cell]) => [name, cell(row)])))}\n`;
  return `${shape.columns.map(([, cell]) => csvCell(cellText(cell(row)))).join(',')}\r\n`;
}

/** A line of the file that is not a row: a JSON object with `note` (and `extra`), or a CSV
 *  line starting `#`. */
function noteLine(format: ExportFormat, text: string, extra: Record<string, unknown>): string {
  return format === 'jsonl' ? `${JSON.stringify({ ...extra, note: text })}\n` : `${csvCell(`# ${text}`)}\r\n`;
}

/** The last line when the export stopped at its limit: said in the file, not only in a header. */
export function truncatedLine(format: ExportFormat, max: number, noun: string): string {
  const text = `export stopped at ${max} rows; more ${noun} match (narrow the filter or raise max up to the console's limit)`;
  return noteLine(format, text, { truncated: true, max });
}

/** The last line when the list itself covers only part of what it lists (its own words: a
 *  bounded grouping, a capped schedule list): the file says so as the page does. */
export const partialLine = (format: ExportFormat, text: string): string => noteLine(format, text, { partial: true });
