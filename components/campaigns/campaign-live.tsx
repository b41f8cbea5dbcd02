'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { describeError, getJson } from '@/lib/client/api';
import { deadAgain, rollupLine } from '@/lib/campaigns/rollup';
import type { BulkCampaignJob, CampaignView, ItemQuery, Rollup } from '@/lib/campaigns/schema';
import { CampaignItemList } from './campaign-items';
import { FOLLOW_LABEL } from './campaign-words';
import { ReplayAgain } from './replay-again';

const COUNTS: Array<[ItemQuery['fate'], string, (r: Rollup) => number]> = [
  ['succeeded', 'succeeded', (r) => r.succeeded],
  ['dead-same', 'died again, same error', (r) => r.deadSame],
  ['dead-new', 'died again, new error', (r) => r.deadNew],
  ['dead', 'died again (all)', deadAgain],
  ['running', 'running', (r) => r.running],
  ['waiting', 'waiting', (r) => r.waiting],
  ['gone', 'gone (not a success)', (r) => r.gone],
  ['unknown', 'unknown', (r) => r.unknown],
  ['pending', 'not looked at yet', (r) => r.pending],
  ['all', 'all', (r) => r.total],
];

/** The fate tabs: for tasks that had not run before, one "failed" instead of the "died again" split. */
const countsOf = (firstRun: boolean) =>
  firstRun
    ? COUNTS.filter(([k]) => k !== 'dead-same' && k !== 'dead-new').map(([k, label, n]): (typeof COUNTS)[number] => [
        k,
        k === 'dead' ? 'failed' : label,
        n,
      ])
    : COUNTS;

/** A campaign's roll-up, updated while it is followed (each view's poll drives the follow-up). */
export function CampaignLive({ initial }: { initial: CampaignView }) {
  const [fate, setFate] = useState<ItemQuery['fate']>('all');
  const q = useQuery({
    queryKey: ['campaign', initial.id],
    queryFn: ({ signal }) => getJson<CampaignView>(`/api/campaigns/${encodeURIComponent(initial.id)}`, signal),
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.follow.state === 'following' ? 3000 : false),
  });
  const c = q.data;
  const live = c.follow.state === 'following';
  const firstRun = c.scope.firstRun === true;
  return (
    <div className="grid gap-4">
      <Card testId="campaign-summary">
        <p className="text-base font-medium" data-testid="campaign-line">
          {rollupLine(c.rollup, firstRun)}
        </p>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          <Badge tone={live ? 'blue' : c.follow.state === 'off' ? 'yellow' : 'neutral'} testId="campaign-follow">
            {FOLLOW_LABEL[c.follow.state]}
          </Badge>{' '}
          {c.follow.why ? <span data-testid="campaign-follow-why">{c.follow.why}. </span> : null}
          {c.follow.lastAt ? `Last looked at ${c.follow.lastAt.replace('T', ' ').slice(0, 19)} UTC.` : 'Not looked at yet.'}
          {live ? ' A look takes the next 100 unsettled tasks, at most every 2 s while this page is open.' : ''}
        </p>
        {c.lastPoll ? <p className="mt-1 text-sm text-amber-700 dark:text-amber-400">The last look failed: {c.lastPoll}</p> : null}
        {q.error ? <p className="mt-1 text-sm text-red-700">{describeError(q.error).message}</p> : null}
        <p className="mt-2 text-sm">
          {c.action} {c.scope.from ? `from ${c.scope.from} to` : 'on'} {c.broker} by {c.who}
          {c.reason ? `: ${c.reason}` : ''} · {c.scope.count.toLocaleString('en-US')} tasks
          {c.scope.filter ? <span className="block font-mono text-xs break-all">filter {JSON.stringify(c.scope.filter)}</span> : null}
        </p>
        {c.scope.job ? <BulkJobLine job={c.scope.job} joined={c.rollup.total} count={c.scope.count} /> : null}
        <p className="mt-1 flex flex-wrap gap-3 text-sm">
          {c.parent ? (
            <Link className="link" href={`/campaigns/${encodeURIComponent(c.parent)}`} data-testid="campaign-parent">
              Replays the dead-again tasks of an earlier campaign
            </Link>
          ) : null}
          <Link className="link" href={`/audit?broker=${encodeURIComponent(c.broker)}`}>
            Audit trail
          </Link>
        </p>
      </Card>
      <ReplayAgain id={c.id} broker={c.broker} dead={deadAgain(c.rollup)} word={firstRun ? 'failed' : 'died again'} />
      <div className="flex flex-wrap gap-2" role="tablist" aria-label="Fate">
        {countsOf(firstRun).map(([key, label, n]) => (
          <button
            key={key}
            role="tab"
            aria-selected={fate === key}
            className={`rounded border px-2 py-1 text-xs ${fate === key ? 'border-sky-600 bg-sky-50 dark:bg-sky-950' : 'border-zinc-300 dark:border-zinc-700'}`}
            onClick={() => setFate(key)}
            data-testid={`campaign-fate-${key}`}
          >
            {label} <span className="font-mono">{n(c.rollup).toLocaleString('en-US')}</span>
          </button>
        ))}
      </div>
      <CampaignItemList key={fate} id={c.id} broker={c.broker} from={c.scope.from} firstRun={firstRun} fate={fate} live={live} />
    </div>
  );
}

/** A bulk job's campaign: how far its job got, in words (its tasks join as each batch is done). */
function BulkJobLine({ job, joined, count }: { job: BulkCampaignJob; joined: number; count: number }) {
  const n = (v: number) => v.toLocaleString('en-US');
  const said =
    job.state === 'running'
      ? `The bulk job is still replaying: ${n(joined)} of ${n(count)} tasks so far; the rest join as each batch is done.`
      : job.state === 'done'
        ? `The bulk job finished: ${n(joined)} of ${n(count)} tasks were replayed${joined < count ? '; the job lists why the others were not' : ''}.`
        : `The bulk job ${job.state === 'failed' ? 'failed' : 'was cancelled'} after ${n(joined)} of ${n(count)} tasks${job.why ? ` (${job.why})` : ''}; the rest were not replayed.`;
  return (
    <p className="mt-1 text-sm" data-testid="campaign-job">
      {said}
    </p>
  );
}
