import Link from 'next/link';
import { Badge, type Tone } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { FullTime } from '@/components/ui/time';
import type { AuditEntry } from '@/lib/audit/types';
import type { BrokerFind, FoundItem } from '@/lib/brokers/schema';
import { visible } from '@/lib/text/visible';

// What the header's "Find by id" found: one card per broker (each streamed on its own, so a
// slow broker never holds back the others) and the audit trail's entries for the id.

const TONE: Record<FoundItem['kind'], Tone> = { task: 'green', dead: 'red', result: 'neutral' };
const WHERE: Record<FoundItem['kind'], string> = { task: 'Task', dead: 'Dead letter', result: 'Result' };

function hrefOf(brokerId: string, id: string, item: FoundItem): string {
  const b = `/brokers/${encodeURIComponent(brokerId)}`;
  // A finished task's page shows its result; a dead letter has its own page.
  return item.kind === 'dead' ? `${b}/dead/${encodeURIComponent(id)}` : `${b}/jobs/${encodeURIComponent(id)}`;
}

export function BrokerFindCard({ id, found }: { id: string; found: BrokerFind }) {
  return (
    <Card testId="find-broker">
      <div data-broker={found.brokerId} data-found={found.items.length}>
        <CardHeader title={found.name}>{found.items.length === 0 ? <NotHere found={found} /> : null}</CardHeader>
        {found.items.length ? (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {found.items.map((it) => (
              <li key={it.kind} className="flex flex-wrap items-center gap-3 px-4 py-2 text-sm" data-testid="find-hit" data-kind={it.kind}>
                <Badge tone={TONE[it.kind]}>{WHERE[it.kind]}</Badge>
                <Link className="link font-mono text-xs break-all" href={hrefOf(found.brokerId, id, it)} data-testid="find-hit-link">
                  {visible(id)}
                </Link>
                <span data-testid="find-hit-state">{it.state}</span>
                {it.task ? <span className="break-all text-zinc-600 dark:text-zinc-300">{visible(it.task)}</span> : null}
                {it.queue ? <span className="text-zinc-500 dark:text-zinc-400">queue {visible(it.queue)}</span> : null}
                {it.at ? (
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">
                    <FullTime iso={it.at} />
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {found.notSearched.length ? (
          <ul className="px-4 py-2 text-xs text-amber-700 dark:text-amber-400" data-testid="find-not-searched">
            {found.notSearched.map((n) => (
              <li key={n.what}>
                {n.what} not searched ({n.code}): {visible(n.message)}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Card>
  );
}

/** "not here" only when every lookup answered; otherwise say how much could be searched. */
function NotHere({ found }: { found: BrokerFind }) {
  const failed = found.notSearched.length;
  if (failed === 0) return <Badge testId="find-verdict">not here</Badge>;
  if (failed >= LOOKUPS)
    return (
      <Badge tone="yellow" testId="find-verdict">
        could not search
      </Badge>
    );
  return (
    <Badge tone="yellow" testId="find-verdict">
      not in what could be searched
    </Badge>
  );
}

/** Tasks, dead letters, results (lib/brokers/service.ts findInBroker). */
const LOOKUPS = 3;

export function PendingFindCard({ brokerId, name }: { brokerId: string; name: string }) {
  return (
    <Card testId="find-broker">
      <div data-broker={brokerId} data-found="pending">
        <CardHeader title={name} />
        <p role="status" className="px-4 py-3 text-sm text-zinc-500 dark:text-zinc-400">
          Looking…
        </p>
      </div>
    </Card>
  );
}

export function AuditFindCard({ id, entries, error }: { id: string; entries: AuditEntry[]; error: string | null }) {
  return (
    <Card testId="find-audit">
      <CardHeader title="Audit trail">
        <Link className="link text-sm" href={`/audit?${new URLSearchParams({ task: id }).toString()}`} data-testid="find-audit-link">
          Full history
        </Link>
      </CardHeader>
      {error ? <p className="px-4 py-3 text-sm text-red-700">{error}</p> : null}
      {!error && entries.length === 0 ? (
        <p className="px-4 py-3 text-sm text-zinc-500 dark:text-zinc-400">No console action named this id.</p>
      ) : null}
      {entries.length ? (
        <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
          {entries.map((e) => (
            <li key={e.id} className="flex flex-wrap gap-3 px-4 py-2" data-testid="find-audit-entry">
              <FullTime iso={e.at} />
              <span className="font-medium">{e.action}</span>
              <span>broker {e.broker}</span>
              <span>by {e.who}</span>
              <span className="text-zinc-500 dark:text-zinc-400">{e.outcome}</span>
              {e.reason ? <span className="text-zinc-500 dark:text-zinc-400">“{e.reason}”</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
