import Link from 'next/link';
import type { MigrationView } from '@/lib/brokers/migration-schema';
import { visible } from '@/lib/text/visible';

// The moves done so far between the pair: the ledger's per-task moves (each linking the task
// page on both sides) and the move actions from the source's audit trail with their failures.

const page = (broker: string, section: string, id: string) => `/brokers/${encodeURIComponent(broker)}/${section}/${encodeURIComponent(id)}`;

export function MigrationMoves({ view }: { view: MigrationView }) {
  const { moves, actions } = view;
  return (
    <div className="grid gap-4 p-4 text-sm">
      <div data-testid="migration-actions">
        <h3 className="font-medium">Move actions ({view.source.name}&apos;s audit trail)</h3>
        {actions.length ? (
          <ul className="mt-1 grid gap-1">
            {actions.map((a) => (
              <li key={a.auditId}>
                {a.at} · {a.who} · {a.outcome}: {a.succeeded ?? '?'} moved, {a.failed ?? '?'} not
                {a.reason ? ` · “${a.reason}”` : ''}
                {a.failures.length ? (
                  <ul className="ml-4 list-disc">
                    {a.failures.map((f) => (
                      <li key={f.id}>
                        <span className="font-mono">{visible(f.id)}</span> {f.outcome}: {f.message}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-zinc-500">No moves to {view.target.name} in the audit trail yet.</p>
        )}
      </div>
      <div data-testid="migration-moves">
        <h3 className="font-medium">Tasks moved{moves.capped ? ` (the newest ${moves.entries.length})` : ''}</h3>
        {moves.entries.length ? (
          <ul className="mt-1 grid gap-1">
            {moves.entries.map((m) => (
              <li key={`${m.sourceId}→${m.targetId}`} data-testid={`moved-${m.sourceId}`}>
                <Link className="font-mono underline" href={page(view.source.id, 'dead', m.sourceId)}>
                  {visible(m.sourceId)}
                </Link>{' '}
                {m.task ? <span className="font-mono">({m.task})</span> : null} →{' '}
                <Link className="font-mono underline" href={page(view.target.id, 'jobs', m.targetId)}>
                  {visible(m.targetId)}
                </Link>{' '}
                · {m.outcome === 'already' ? 'already there' : 'moved'} · {m.at} · {m.who}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-zinc-500">
            No task has moved from {view.source.name} to {view.target.name} yet.
          </p>
        )}
      </div>
    </div>
  );
}
