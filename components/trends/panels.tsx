'use client';
import { taskWords } from '@/components/jobs/task-words';
import { useOverview } from '@/lib/client/hooks';
import { useState } from 'react';
import { ErrorBox, Loading } from '@/components/ui/states';
import { describeError } from '@/lib/client/api';
import { formatAge, formatCount } from '@/lib/text/format';
import { useDeadTrend, useQueueTrend } from '@/lib/client/trends';
import type { DeadTrend, TrendRange } from '@/lib/trends/schema';
import { RangePicker, rangeWords } from './range-picker';
import { describeRange } from '@/lib/brokers/time-range';
import { TrendChart } from './trend-chart';

const count = (n: number) => formatCount(n);
const age = (s: number) => formatAge(s);

/** An answer's error in the panel itself: an unreachable broker or store never breaks the page. */
function Failed({ error }: { error: unknown }) {
  return (
    <div className="py-2" data-testid="trend-error">
      <ErrorBox {...describeError(error)} />
    </div>
  );
}

function deadNote(t: DeadTrend): string | undefined {
  const parts = [
    t.undated ? `${t.undated.toLocaleString('en-US')} matching letters have no died time and are in no bucket.` : '',
    t.scannedNewest ? `Only ${t.scannedNewest.toLocaleString('en-US')} letters were looked at; the rest are not counted.` : '',
    t.recorded === null
      ? "The console's record of deaths could not be read: only the letters the broker still keeps are counted."
      : 'Counted from the deaths the console recorded as it saw them and the letters the broker keeps, so replayed or discarded letters still count.',
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

type Span = { since?: string; until?: string };

/** The window a list's range gave the chart, in words ("from … to … UTC"), and when it was cut. */
function spanNote(t: DeadTrend, span?: Span): string {
  if (!span || !describeRange(span)) return '';
  const at = (iso: string) => iso.slice(0, 16).replace('T', ' ');
  const cut = t.clamped ? ' The range begins earlier than a chart reaches back: the chart shows its last week.' : '';
  return `From ${at(t.from)} to ${at(t.to)} UTC, as of this read.${cut}`;
}

/** Dead letters per bucket from the broker's own died times (a queue's, a group's, or all);
 *  with `span` (a list's time range, as written) the window follows it. */
export function DeadTrendChart(props: { brokerId: string; range: TrendRange; queue?: string; group?: string; title: string; span?: Span }) {
  const { brokerId, range, queue, group, title, span } = props;
  const q = useDeadTrend(brokerId, range, { queue, group, ...span });
  if (q.error && !q.data) return <Failed error={q.error} />;
  if (!q.data) return <Loading label="Reading died times…" />;
  const t = q.data;
  return (
    <TrendChart
      testId="trend-dead"
      title={`${title} (${rangeWords(t.range)})`}
      from={t.from}
      bucketSeconds={t.bucketSeconds}
      note={[spanNote(t, span), deadNote(t)].filter(Boolean).join(' ') || undefined}
      series={[{ label: 'Letters died', values: t.counts, kind: 'bars', format: count, integer: true }]}
      marks={t.campaigns.map((c) => ({
        at: c.at,
        label: `${c.action} of ${count(c.count)}`,
        href: `/campaigns/${encodeURIComponent(c.id)}`,
      }))}
    />
  );
}

/** Depth and oldest-waiting age, from the console's samples. */
export function QueueTrendCharts({ brokerId, range, queue }: { brokerId: string; range: TrendRange; queue?: string }) {
  const q = useQueueTrend(brokerId, range, queue);
  const words = taskWords(useOverview(brokerId).data?.model);
  if (q.error && !q.data) return <Failed error={q.error} />;
  if (!q.data) return <Loading label="Reading samples…" />;
  const t = q.data;
  const note = !t.sampling.on
    ? t.sampling.why
    : t.depth.every((v) => v === null)
      ? `No samples in this window yet: the console samples every ${t.sampling.intervalSeconds}s.`
      : `Sampled by the console every ${t.sampling.intervalSeconds}s; each point is the highest sample in its bucket, gaps are times the broker could not be read.`;
  const lower = [t.depthAtLeast.some(Boolean) ? 'waiting' : '', t.deadAtLeast.some(Boolean) ? 'dead-letter' : ''].filter(Boolean);
  const boundNote = lower.length
    ? ` Some ${lower.join(' and ')} samples are lower bounds: the console stopped counting at the broker's cap, so the count was at least the value shown.`
    : '';
  return (
    <>
      <TrendChart
        testId="trend-depth"
        title={`Waiting ${words.nouns}`}
        from={t.from}
        bucketSeconds={t.bucketSeconds}
        note={note && `${note}${boundNote}`}
        series={[
          { label: 'Waiting', values: t.depth, kind: 'line', format: count, integer: true },
          { label: 'Dead letters kept', values: t.dead, kind: 'line', format: count },
        ]}
      />
      <TrendChart
        testId="trend-oldest"
        title={`Oldest waiting ${words.noun}'s age`}
        from={t.from}
        bucketSeconds={t.bucketSeconds}
        series={[{ label: 'Oldest waiting', values: t.oldestSeconds, kind: 'line', format: age, integer: true }]}
      />
    </>
  );
}

/** The queue page's trends: depth, age and dead letters of one queue, one range for all. */
export function QueueTrends({ brokerId, queue }: { brokerId: string; queue: string }) {
  const [range, setRange] = useState<TrendRange>('day');
  return (
    <div className="grid gap-4 p-4" data-testid="queue-trends">
      <RangePicker value={range} onChange={setRange} />
      <div className="grid gap-6 lg:grid-cols-3">
        <QueueTrendCharts brokerId={brokerId} range={range} queue={queue} />
        <DeadTrendChart brokerId={brokerId} range={range} queue={queue} title="Dead letters" />
      </div>
    </div>
  );
}

/** The dead-letter page's chart: all letters, a queue's, or the chosen group's; with the list's
 *  time range, over that range (the presets then give way to it). */
export function DeadTrends({ brokerId, queue, group, span = {} }: { brokerId: string; queue?: string; group?: string; span?: Span }) {
  const [range, setRange] = useState<TrendRange>('day');
  // Only the range's text: the page passes its whole filter.
  const words = describeRange({ since: span.since, until: span.until });
  return (
    <div className="grid gap-3 p-4" data-testid="dead-trends">
      {words ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300" data-testid="dead-trends-range">
          Over the list&apos;s range: died {words}
        </p>
      ) : (
        <RangePicker value={range} onChange={setRange} />
      )}
      <DeadTrendChart
        brokerId={brokerId}
        range={range}
        queue={queue}
        group={group}
        span={words ? { since: span.since, until: span.until } : undefined}
        title={group ? 'Letters of this group' : queue ? 'Letters of this queue' : 'Dead letters'}
      />
    </div>
  );
}
