import Link from 'next/link';
import { taskMoves } from '@/lib/actions/migration';
import { visible } from '@/lib/text/visible';

// A task page's "where the work went or came from" (server-rendered, from the moves ledger):
// a moved letter's page says which broker it went to and as which task, the task's page there
// says where it came from. Shown only where the console moved the task.

const taskHref = (broker: string, section: 'jobs' | 'dead', id: string) =>
  `/brokers/${encodeURIComponent(broker)}/${section}/${encodeURIComponent(id)}`;

export async function MovedPanel({ brokerId, id }: { brokerId: string; id: string }) {
  const { to, from } = await taskMoves(brokerId, id);
  if (!to.length && !from.length) return null;
  return (
    <section
      data-testid="moved-panel"
      className="mb-4 rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sm dark:border-sky-800 dark:bg-sky-950"
    >
      <ul className="grid gap-1">
        {to.map((m) => (
          <li key={`to-${m.target}-${m.targetId}`} data-testid="moved-to">
            Moved to <strong>{m.otherName}</strong> as{' '}
            <Link className="font-mono underline" href={taskHref(m.target, 'jobs', m.targetId)}>
              {visible(m.targetId)}
            </Link>{' '}
            ({m.outcome === 'already' ? 'it was already there' : 'moved'} at {m.at} by {m.who}); it is no longer here.
          </li>
        ))}
        {from.map((m) => (
          <li key={`from-${m.source}-${m.sourceId}`} data-testid="moved-from">
            Moved here from <strong>{m.otherName}</strong>, where it was{' '}
            <Link className="font-mono underline" href={taskHref(m.source, 'dead', m.sourceId)}>
              {visible(m.sourceId)}
            </Link>{' '}
            (at {m.at} by {m.who}).
          </li>
        ))}
      </ul>
    </section>
  );
}
