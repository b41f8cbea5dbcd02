'use client';
import { visible } from '@/lib/text/visible';
import { diffRows, type DiffEntry } from './diff-rows';

const struck = 'text-red-700 line-through dark:text-red-400';
const added = 'text-emerald-700 dark:text-emerald-400';

/** One side of an object field: its entries one per line, only the changed ones marked. */
function Entries({ entries, side }: { entries: DiffEntry[]; side: 'before' | 'after' }) {
  return (
    <>
      {entries.map((e) => {
        const v = e[side];
        return (
          <div
            key={e.key}
            data-testid="edit-diff-entry"
            data-key={e.key}
            data-changed={e.changed ? 'yes' : 'no'}
            className={e.changed ? (side === 'before' ? struck : added) : ''}
          >
            {visible(e.key)}: {v === undefined ? '—' : visible(v)}
          </div>
        );
      })}
    </>
  );
}

/** The message before and after an edit, field by field; changed fields (and, inside an object
 *  field, changed entries) marked. */
export function MessageDiff({ before, after }: { before: string; after: string }) {
  return (
    <table className="table-base text-xs" data-testid="edit-diff">
      <thead>
        <tr>
          <th>Field</th>
          <th>A plain replay writes</th>
          <th>This edit writes</th>
        </tr>
      </thead>
      <tbody>
        {diffRows(before, after).map((r) => (
          <tr
            key={r.key}
            data-testid="edit-diff-row"
            data-field={r.key}
            data-changed={r.changed ? 'yes' : 'no'}
            className={r.changed ? 'bg-amber-50 dark:bg-amber-950/30' : ''}
          >
            <td className="font-mono">{visible(r.key)}</td>
            {r.entries ? (
              <>
                <td className="font-mono break-all">
                  <Entries entries={r.entries} side="before" />
                </td>
                <td className="font-mono break-all">
                  <Entries entries={r.entries} side="after" />
                </td>
              </>
            ) : (
              <>
                <td className={`font-mono break-all ${r.changed ? struck : ''}`}>{r.before === undefined ? '—' : visible(r.before)}</td>
                <td className={`font-mono break-all ${r.changed ? added : ''}`}>{r.after === undefined ? '—' : visible(r.after)}</td>
              </>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
