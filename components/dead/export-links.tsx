import { apiUrl, brokerPath } from '@/lib/client/api';
import type { DeadFilters } from '@/lib/client/query-keys';

/** The rows one export writes unless told otherwise (lib/actions/export.ts). */
const EXPORT_ROWS = 10_000;

/** Downloads of the letters matching the list's filter (every page, not only the ones loaded),
 *  as CSV or JSON lines; the console streams at most EXPORT_ROWS and records each in the audit trail. */
export function ExportLinks({ brokerId, filters }: { brokerId: string; filters: DeadFilters }) {
  const href = (format: 'csv' | 'jsonl') => apiUrl(brokerPath(brokerId, '/dead/export'), { ...filters, format });
  const cls = 'rounded px-1.5 py-0.5 text-xs font-medium text-sky-700 hover:bg-zinc-100 dark:text-sky-400 dark:hover:bg-zinc-800';
  return (
    <span
      className="flex items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400"
      data-testid="export-links"
      title={`Every letter matching this filter, up to ${EXPORT_ROWS.toLocaleString('en-US')} (the file's last line says when it stopped); recorded in the audit trail`}
    >
      Export
      <a className={cls} href={href('csv')} download data-testid="export-csv">
        CSV
      </a>
      <a className={cls} href={href('jsonl')} download data-testid="export-jsonl">
        JSON lines
      </a>
    </span>
  );
}
