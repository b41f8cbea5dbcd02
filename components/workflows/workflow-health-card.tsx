'use client';
import Link from 'next/link';
import { Card, CardHeader } from '@/components/ui/card';
import type { BrokerOverview } from '@/lib/brokers/schema';
import { visible } from '@/lib/text/visible';

/** The broker page's Workflows card: failed runs now and the newest with their cause. Shown
 *  where the adapter declares workflows; "—" when the system did not count them. */
export function WorkflowHealthCard({ overview }: { overview: BrokerOverview }) {
  if (!overview.capabilities.workflows?.on) return null;
  const h = overview.workflows;
  const base = `/brokers/${encodeURIComponent(overview.id)}/workflows`;
  return (
    <Card testId="broker-workflows">
      <CardHeader title="Workflows">
        <Link className="link text-sm" href={base} data-testid="nav-workflows">
          All runs
        </Link>
      </CardHeader>
      <div className="grid gap-2 p-4 text-sm">
        <p data-testid="workflows-failed">
          {h?.failed === null || h === undefined ? '—' : h.failed.toLocaleString('en-US')} failed run{h?.failed === 1 ? '' : 's'}
        </p>
        <ul className="grid gap-1">
          {(h?.recent ?? []).map((r) => (
            <li key={r.id} data-testid="failed-run">
              <Link className="link" href={`${base}/${encodeURIComponent(r.id)}`}>
                {visible(r.name)}
              </Link>{' '}
              <span className="text-zinc-500">{r.status}</span>
              {r.error ? <span className="text-red-700 dark:text-red-400">: {visible(r.error)}</span> : null}
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
