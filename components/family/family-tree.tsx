import type { FamilyGroup, TaskFamily } from '@/lib/brokers/family/schema';
import { FamilyMemberRow } from './family-member';
import { visible } from '@/lib/text/visible';

const count = (n: number | null) => (n === null ? '—' : String(n));

/** Each group or chord with its parts done/total (— where the system cannot count). */
export function FamilyGroups({ brokerId, groups }: { brokerId: string; groups: FamilyGroup[] }) {
  if (groups.length === 0) return null;
  return (
    <div className="space-y-2">
      {groups.map((g) => (
        <div key={g.id} data-testid="family-group" data-kind={g.kind}>
          <div>
            <span className="font-semibold">{g.kind === 'chord' ? 'Chord' : 'Group'}</span>{' '}
            <span className="font-mono text-xs">{visible(g.id)}</span>:{' '}
            <span data-testid="family-group-progress">
              {count(g.done)}/{count(g.total)} parts done
              {g.failed ? `, ${g.failed} failed` : ''}
            </span>
            {` (${g.members.length} found)`}
          </div>
          {g.callback ? (
            <div className="pl-4">
              Callback: <FamilyMemberRow brokerId={brokerId} m={g.callback} />
            </div>
          ) : null}
          {g.note ? <p className="pl-4 text-xs text-zinc-500 dark:text-zinc-400">{g.note}</p> : null}
        </div>
      ))}
    </div>
  );
}

/** Every member found, indented under its parent (members are listed parents first). */
export function FamilyTree({ brokerId, f }: { brokerId: string; f: TaskFamily }) {
  const depth = new Map<string, number>();
  for (const m of f.members) depth.set(m.id, m.parentId !== null && depth.has(m.parentId) ? Math.min(depth.get(m.parentId)! + 1, 12) : 0);
  return (
    <details open={f.members.length <= 50}>
      <summary className="cursor-pointer">
        All members{f.capped ? ` (at least ${f.members.length}; the first ${f.members.length} shown)` : ` (${f.members.length})`}
      </summary>
      <ul className="mt-1 max-h-96 overflow-auto" data-testid="family-tree">
        {f.members.map((m) => (
          <li key={m.id} style={{ paddingLeft: `${(depth.get(m.id) ?? 0) * 1}rem` }}>
            <FamilyMemberRow brokerId={brokerId} m={m} current={m.id === f.id} />
          </li>
        ))}
      </ul>
    </details>
  );
}
