'use client';
import Link from 'next/link';
import { EnvironmentBadge } from '@/components/layout/environment-badge';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { ErrorBox, Loading } from '@/components/ui/states';
import { PagedQueueTable } from '@/components/queues/paged-queue-table';
import { StuckPanel } from '@/components/triage/stuck-flags';
import { BrokerSparklines } from '@/components/trends/broker-sparklines';
import { describeError } from '@/lib/client/api';
import { countOf, type BrokerOverview } from '@/lib/brokers/schema';
import { countTitle, formatCount } from '@/lib/text/format';
import { visible } from '@/lib/text/visible';
import { useOverview, useWorkers } from '@/lib/client/hooks';
import { clockUtc } from '@/lib/client/live-status';

export interface BrokerCardProps {
  brokerId: string;
  name: string;
  /** The system and its store, as `brokerBadge` writes them ("Celery · Redis"). */
  badge: string;
  /** The server-side read failed; shown until a poll succeeds. */
  initialError?: { code: string; message: string };
}

function Totals({ o }: { o: BrokerOverview }) {
  const items: Array<[string, number | null]> = [
    ...(o.model?.states ?? []).map((st) => [st.key, countOf(o.totals, st.key)] as [string, number | null]),
    ['dead', o.totals.dead],
  ];
  const capped = o.totalsCapped;
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 px-4 py-3 text-sm">
      {items.map(([label, n]) => (
        <div key={label} className="flex items-baseline gap-1.5">
          <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
          <dd className="font-semibold tabular-nums" data-testid={`total-${label}`} title={countTitle(capped?.[label])}>
            {formatCount(n, capped?.[label])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Where the worker count predates the rest of the overview: how much older it is, in words. */
function workersAge(o: BrokerOverview): string | undefined {
  if (!o.workersReadAt) return undefined;
  const s = Math.max(0, Math.round((Date.parse(o.readAt) - Date.parse(o.workersReadAt)) / 1000));
  return `workers counted ${s} s before the rest of this overview (the workers' last answer is reused for a few seconds)`;
}

/** Live and stale workers; where the system keeps no worker registry, the adapter's words why. */
function WorkerBadges({ o }: { o: BrokerOverview }) {
  const w = o.workers;
  if (!w) {
    const why = o.capabilities.workers.why ?? 'this system does not report its workers';
    return (
      <Badge testId="workers-untracked" title={visible(why)}>
        workers not tracked
      </Badge>
    );
  }
  return (
    <>
      <Badge tone={w.alive > 0 ? 'green' : 'neutral'} testId="workers-alive" title={workersAge(o)}>
        {w.alive} live worker{w.alive === 1 ? '' : 's'}
      </Badge>
      {w.stale > 0 ? (
        <Badge tone="yellow" testId="workers-stale">
          {w.stale} stale
        </Badge>
      ) : null}
    </>
  );
}

function CardTitle({ brokerId, name, badge }: { brokerId: string; name: string; badge: string }) {
  return (
    <span className="flex items-center gap-2">
      <Link href={`/brokers/${encodeURIComponent(brokerId)}`} className="link">
        {name}
      </Link>
      <Badge testId="broker-badge">{badge}</Badge>
      <EnvironmentBadge brokerId={brokerId} testId="card-environment" />
    </span>
  );
}

/** A card whose broker has not answered yet (the overview streams each card on its own). */
export function PendingBrokerCard({ brokerId, name, badge }: { brokerId: string; name: string; badge: string }) {
  return (
    <Card testId="broker-card">
      <div data-broker={brokerId} data-state="loading">
        <CardHeader title={<CardTitle brokerId={brokerId} name={name} badge={badge} />} />
        <Loading label="Waiting for the broker…" />
      </div>
    </Card>
  );
}

export function BrokerCard({ brokerId, name, badge, initialError }: BrokerCardProps) {
  const q = useOverview(brokerId);
  const workers = useWorkers(brokerId, !!q.data?.capabilities.workers.on);
  const title = <CardTitle brokerId={brokerId} name={name} badge={badge} />;
  const error = q.error ? describeError(q.error) : !q.data ? initialError : undefined;
  if (error && !q.data) {
    return (
      <Card testId="broker-card" className="border-red-300 dark:border-red-900">
        <div data-broker={brokerId} data-state="error">
          <CardHeader title={title} />
          <div className="p-4">
            <ErrorBox code={error.code} message={error.message} />
          </div>
        </div>
      </Card>
    );
  }
  if (!q.data)
    return (
      <Card testId="broker-card">
        <CardHeader title={title} />
        <Loading />
      </Card>
    );
  const o = q.data;
  return (
    <Card testId="broker-card">
      <div data-broker={brokerId} data-state="ok">
        <CardHeader title={title}>
          {o.readOnly ? <Badge tone="yellow">read-only</Badge> : null}
          <WorkerBadges o={o} />
        </CardHeader>
        {o.workers === null ? (
          <p className="px-4 pt-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="workers-untracked-why">
            Workers are not tracked here: {visible(o.capabilities.workers.why ?? 'this system does not report its workers')}.
          </p>
        ) : null}
        {o.serverInfo ? (
          <p className="px-4 pt-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="server-info">
            {o.serverInfo}
          </p>
        ) : null}
        {o.warnings?.length ? (
          <ul
            className="mx-4 mt-2 grid gap-1 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200"
            data-testid="broker-warnings"
          >
            {o.warnings.map((w) => (
              <li key={w} data-testid="broker-warning">
                {w}
              </li>
            ))}
          </ul>
        ) : null}
        <Totals o={o} />
        <BrokerSparklines brokerId={brokerId} />
        {q.error ? (
          <div className="px-4 pb-2">
            <ErrorBox {...describeError(q.error)}>
              <p className="mt-1 text-xs" data-testid="card-stale">
                Stale: showing the last data read, as of {clockUtc(q.dataUpdatedAt)} UTC.
              </p>
            </ErrorBox>
          </div>
        ) : null}
        <PagedQueueTable overview={o} workers={workers.data} />
        <StuckPanel brokerId={brokerId} limit={5} />
      </div>
    </Card>
  );
}
