import Link from 'next/link';
import { Badge, type Tone } from '@/components/ui/badge';
import { Empty } from '@/components/ui/states';
import type { AuditEntry } from '@/lib/audit/types';
import { visible } from '@/lib/text/visible';

const TONE: Record<AuditEntry['outcome'], Tone> = { done: 'green', partial: 'yellow', failed: 'red', refused: 'red', pending: 'blue' };
const SHOWN_IDS = 20;

const history = (broker: string, task: string) => `/audit?${new URLSearchParams({ broker, task }).toString()}`;

/** Entries as text only: reasons, ids and messages are user or broker data, never markup. */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  if (!entries.length) return <Empty>No recorded actions match.</Empty>;
  return (
    <div className="overflow-x-auto">
      <table className="table-base min-w-[60rem]" data-testid="audit-table">
        <thead>
          <tr>
            <th>When (UTC)</th>
            <th>Who</th>
            <th>Action</th>
            <th>Broker / queue</th>
            <th>Ids or filter</th>
            <th>Reason</th>
            <th>Outcome</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-testid="audit-row" data-action={e.action} data-outcome={e.outcome} className="align-top">
              <td className="font-mono text-xs whitespace-nowrap">{e.at.replace('T', ' ').slice(0, 19)}</td>
              <td className="text-xs">
                <span data-testid="audit-who">{visible(e.who)}</span>
                {e.subject ? (
                  <span
                    className="block font-mono break-all text-zinc-500 dark:text-zinc-400"
                    data-testid="audit-subject"
                    title="Who this user is at the identity provider (subject and issuer)"
                  >
                    sub {visible(e.subject)} at {visible(e.issuer ?? '?')}
                  </span>
                ) : null}
                {e.role ? (
                  <span className="block text-zinc-500 dark:text-zinc-400">
                    {e.role}
                    {e.via ? ` · ${e.via}` : ''}
                  </span>
                ) : null}
              </td>
              <td data-testid="audit-action">{e.action}</td>
              <td className="text-xs break-all">
                {e.broker}
                {e.queue ? <span className="block text-zinc-500 dark:text-zinc-400">{visible(e.queue)}</span> : null}
              </td>
              <td className="text-xs">
                {e.filter ? (
                  <span className="block font-mono break-all" data-testid="audit-filter">
                    filter {JSON.stringify(e.filter)}
                    {e.count !== null ? ` · ${e.count} in snapshot` : ''}
                  </span>
                ) : null}
                <ul className="font-mono">
                  {e.ids.slice(0, SHOWN_IDS).map((id) => {
                    const r = e.results.find((x) => x.id === id);
                    return (
                      <li key={id} className="break-all" data-testid="audit-id" data-id={id}>
                        <Link className="link" href={history(e.broker, id)} title="History of this task">
                          {visible(id)}
                        </Link>
                        {r ? (
                          <span
                            className={r.outcome === 'ok' ? ' text-emerald-700 dark:text-emerald-400' : ' text-red-700 dark:text-red-400'}
                          >
                            {' '}
                            {r.outcome}
                            {r.message ? `: ${visible(r.message)}` : ''}
                          </span>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
                {e.idsTotal > SHOWN_IDS ? (
                  <span className="text-zinc-500 dark:text-zinc-400">and {e.idsTotal - SHOWN_IDS} more</span>
                ) : null}
              </td>
              <td className="max-w-64 text-xs break-words" data-testid="audit-reason">
                {e.reason === null ? '—' : visible(e.reason)}
              </td>
              <td className="text-xs">
                <Badge tone={TONE[e.outcome]}>{e.outcome}</Badge>
                {e.message ? (
                  <span className="mt-1 block break-words text-zinc-500 dark:text-zinc-400" data-testid="audit-message">
                    {e.code ? `${e.code}: ` : ''}
                    {visible(e.message)}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
