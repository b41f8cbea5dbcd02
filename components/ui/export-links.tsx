import { apiUrl, brokerPath } from '@/lib/client/api';

/** The rows one export writes unless told otherwise (lib/actions/export.ts). */
const EXPORT_ROWS = 10_000;

/** The lists that export (each has `GET /api/brokers/{broker}/{list}/export`). */
export type ExportList = 'dead' | 'tasks' | 'results' | 'dead/groups' | 'workers' | 'workflows' | 'schedules';

/** Downloads of the rows matching the list's filter (every page, not only the ones loaded), as
 *  CSV or JSON lines; the console streams at most EXPORT_ROWS and records each in the audit trail. */
export function ExportLinks({
  brokerId,
  list,
  noun,
  filters,
  label = 'Export',
}: {
  brokerId: string;
  list: ExportList;
  /** What the rows are, in the adapter's words ("letters", "jobs"). */
  noun: string;
  filters: Record<string, string | undefined>;
  /** What the links export, when not the list beside them ("Export its letters" on a group's row). */
  label?: string;
}) {
  const href = (format: 'csv' | 'jsonl') => apiUrl(brokerPath(brokerId, `/${list}/export`), { ...filters, format });
  const cls = 'rounded px-1.5 py-0.5 text-xs font-medium text-sky-700 hover:bg-zinc-100 dark:text-sky-400 dark:hover:bg-zinc-800';
  return (
    <span
      className="flex items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400"
      data-testid="export-links"
      title={`Every one of the ${noun} matching this filter, up to ${EXPORT_ROWS.toLocaleString('en-US')} (the file's last line says when it stopped); recorded in the audit trail`}
    >
      {label}
      <a className={cls} href={href('csv')} download data-testid="export-csv">
        CSV
      </a>
      <a className={cls} href={href('jsonl')} download data-testid="export-jsonl">
        JSON lines
      </a>
    </span>
  );
}
