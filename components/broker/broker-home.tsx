'use client';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { ErrorBox, Loading } from '@/components/ui/states';
import { PagedQueueTable } from '@/components/queues/paged-queue-table';
import { StuckPanel } from '@/components/triage/stuck-flags';
import { ScheduleProblems } from '@/components/schedules/schedule-problems';
import { schedulesDecl } from '@/lib/brokers/schedule-model';
import { WorkerStatus } from '@/components/workers/worker-status';
import { workersWords } from '@/components/workers/words';
import { WorkflowHealthCard } from '@/components/workflows/workflow-health-card';
import { DEAD, countOf } from '@/lib/brokers/schema';
import { describeError } from '@/lib/client/api';
import { countTitle, formatAge, formatCount } from '@/lib/text/format';
import { useOverview, useWorkers } from '@/lib/client/hooks';
import { visible } from '@/lib/text/visible';

export function BrokerHome({ brokerId }: { brokerId: string }) {
  const o = useOverview(brokerId);
  const w = useWorkers(brokerId, !!o.data?.capabilities.workers.on);
  if (o.error && !o.data) return <ErrorBox {...describeError(o.error)} />;
  if (!o.data) return <Loading />;
  const words = workersWords(o.data.model?.workers);
  // Every capability the adapter turned off, its states' listings (`list:<state>`) included.
  const off = Object.entries(o.data.capabilities).filter(([, c]) => !c.on);
  const base = `/brokers/${encodeURIComponent(brokerId)}`;
  return (
    <div className="grid gap-6">
      <Card testId="broker-queues">
        <CardHeader title="Queues">
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            {/* The declared states' totals in the adapter's order, then the dead letters. */}
            {[...(o.data.model?.states ?? []).map((st) => st.key), DEAD].map((k, i) => (
              <span key={k} title={countTitle(o.data.totalsCapped?.[k])} data-testid={`header-total-${k}`}>
                {i ? ' · ' : ''}
                {formatCount(countOf(o.data.totals, k), o.data.totalsCapped?.[k])} {k}
              </span>
            ))}
          </span>
        </CardHeader>
        <PagedQueueTable overview={o.data} workers={w.data} />
        <StuckPanel brokerId={brokerId} />
      </Card>
      {/* Missed and failing schedules, where the system declares schedules the console can read. */}
      {schedulesDecl(o.data.model) && o.data.capabilities.schedules?.on ? <ScheduleProblems brokerId={brokerId} /> : null}
      <Card testId="broker-workers">
        <CardHeader title="Workers">
          <Link className="link text-sm" href={`${base}/workers`}>
            All workers
          </Link>
        </CardHeader>
        {w.error ? (
          <div className="p-4">
            <ErrorBox {...describeError(w.error)} />
          </div>
        ) : null}
        {w.data && w.data.length === 0 ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">{words.empty}</p> : null}
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {(w.data ?? []).slice(0, 10).map((wk) => (
            <li key={wk.id} className="flex flex-wrap items-center gap-3 px-4 py-2 text-sm" data-testid="worker-summary">
              <WorkerStatus status={wk.status} />
              <span className="font-mono text-xs">{visible(wk.id)}</span>
              <span className="text-zinc-500 dark:text-zinc-400">{visible(wk.queues.join(', '))}</span>
              <span className="ml-auto text-xs text-zinc-500 dark:text-zinc-400">
                {wk.running.length} running · {words.seen.toLowerCase()} {formatAge(wk.ageSeconds)} ago
              </span>
            </li>
          ))}
        </ul>
      </Card>
      <WorkflowHealthCard overview={o.data} />
      {off.length ? (
        <Card testId="broker-capabilities">
          <CardHeader title="Not available on this broker" />
          <ul className="grid gap-1 p-4 text-sm">
            {off.map(([k, c]) => (
              <li key={k}>
                <Badge>{k}</Badge> <span className="text-zinc-600 dark:text-zinc-400">{c.why ?? ''}</span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}
