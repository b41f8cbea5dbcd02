import Link from 'next/link';
import type { BoundedCount, MigrationRow, MigrationView } from '@/lib/brokers/migration-schema';

// The migration view's table (server-rendered): one row per task name, counts on each side.
// Task names are text, never links or markup; the links are built from broker ids only.

/** "—" unknown, "≥ n" at least (the read stopped at its cap), else the count. */
export const countText = (c: BoundedCount | null): string => (c === null || c.n === null ? '—' : c.atLeast ? `≥ ${c.n}` : String(c.n));

const th = 'px-3 py-2 text-left font-medium';
const td = 'px-3 py-1.5 tabular-nums';

function Row({ r, mappingsHref }: { r: MigrationRow; mappingsHref: string }) {
  const lacking = r.target.noHandler?.n ? r.target.noHandler : null;
  const counts: Array<[string, BoundedCount]> = [
    ['source-waiting', r.source.waiting],
    ['source-dead', r.source.dead],
    ['target-waiting', r.target.waiting],
    ['target-dead', r.target.dead],
  ];
  return (
    <tr className="border-t border-zinc-200 dark:border-zinc-800" data-testid={`migration-row-${r.task ?? `target:${r.targetTask}`}`}>
      <td className={`${td} font-mono break-all`}>{r.task ?? <span className="text-zinc-500">(only on the target)</span>}</td>
      <td className={`${td} font-mono break-all`}>{r.targetTask}</td>
      <td className={td} data-testid="mapped">
        {r.mapped ? (
          <Link className="underline" href={mappingsHref}>
            mapped
          </Link>
        ) : r.task ? (
          'no mapping'
        ) : (
          ''
        )}
      </td>
      {counts.map(([testId, c]) => (
        <td key={testId} className={td} data-testid={testId}>
          {countText(c)}
        </td>
      ))}
      <td className={td} data-testid="no-handler">
        {lacking ? (
          <strong className="text-red-700 dark:text-red-400">{countText(lacking)} without a handler</strong>
        ) : (
          countText(r.target.noHandler)
        )}
      </td>
      <td className={td} data-testid="moved">
        {r.moved.ok + r.moved.already ? `${r.moved.ok} moved${r.moved.already ? `, ${r.moved.already} already there` : ''}` : '0'}
      </td>
    </tr>
  );
}

export function MigrationTable({ view }: { view: MigrationView }) {
  const mappingsHref = `/brokers/${encodeURIComponent(view.source.id)}/mappings`;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="migration-table">
        <thead>
          <tr>
            <th className={th}>Task on {view.source.name}</th>
            <th className={th}>Name on {view.target.name}</th>
            <th className={th}>Mapping</th>
            <th className={th}>Waiting here</th>
            <th className={th}>Dead here</th>
            <th className={th}>Waiting there</th>
            <th className={th}>Dead there</th>
            <th className={th}>No handler there</th>
            <th className={th}>Moves</th>
          </tr>
        </thead>
        <tbody>
          {view.rows.map((r) => (
            <Row key={`${r.task ?? ''}→${r.targetTask}`} r={r} mappingsHref={mappingsHref} />
          ))}
        </tbody>
      </table>
      {view.rows.length ? null : <p className="p-4 text-sm text-zinc-500">No task names on either broker, no mappings, no moves.</p>}
    </div>
  );
}
