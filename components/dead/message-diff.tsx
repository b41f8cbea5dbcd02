'use client';
import { dumpsPy, parseJson, plainPy } from '@/lib/potatoq';
import { visible } from '@/lib/text/visible';

/** Top-level fields of a message as text, in wire order (tolerant of NaN and big numbers). */
function fieldsOf(json: string): Array<[string, string]> {
  try {
    const n = parseJson(json);
    return n.k === 'obj' ? n.entries.map(([k, v]) => [k, dumpsPy(plainPy(v))]) : [['(message)', json]];
  } catch {
    return [['(message)', json]];
  }
}

/** The message before and after an edit, field by field; changed fields marked. */
export function MessageDiff({ before, after }: { before: string; after: string }) {
  const b = new Map(fieldsOf(before));
  const a = fieldsOf(after);
  const keys = [...new Set([...a.map(([k]) => k), ...b.keys()])];
  const am = new Map(a);
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
        {keys.map((k) => {
          const x = b.get(k);
          const y = am.get(k);
          const changed = x !== y;
          return (
            <tr
              key={k}
              data-testid="edit-diff-row"
              data-field={k}
              data-changed={changed ? 'yes' : 'no'}
              className={changed ? 'bg-amber-50 dark:bg-amber-950/30' : ''}
            >
              <td className="font-mono">{visible(k)}</td>
              <td className={`font-mono break-all ${changed ? 'text-red-700 line-through dark:text-red-400' : ''}`}>
                {x === undefined ? '—' : visible(x)}
              </td>
              <td className={`font-mono break-all ${changed ? 'text-emerald-700 dark:text-emerald-400' : ''}`}>
                {y === undefined ? '—' : visible(y)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
