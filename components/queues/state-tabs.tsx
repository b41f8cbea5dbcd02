'use client';
import Link from 'next/link';
import { countOf } from '@/lib/brokers/schema';
import { countTitle, formatCount } from '@/lib/text/format';
import { useOverview } from '@/lib/client/hooks';
import { tabOff, type QueueTab } from './tabs';

/** Tabs are links that keep the other filters in the URL; each shows the queue's count for its
 *  state from the live overview ("—" when the broker cannot count it). A state this broker
 *  cannot list (its `list:<state>` capability off) is a disabled tab with why as its title;
 *  its count still shows. */
export function StateTabs({
  base,
  brokerId,
  queue,
  tabs,
  active,
  params,
}: {
  base: string;
  brokerId: string;
  queue: string;
  tabs: QueueTab[];
  active: string;
  params: Record<string, string | undefined>;
}) {
  const o = useOverview(brokerId);
  const stats = o.data?.queues.find((q) => q.name === queue);
  return (
    <nav aria-label="Task state" className="flex gap-1 border-b border-zinc-200 px-2 dark:border-zinc-800" role="tablist">
      {tabs.map(({ key: tab, label }) => {
        const all: Record<string, string | undefined> = { ...params, state: tab };
        const qs = new URLSearchParams(Object.entries(all).filter((e): e is [string, string] => !!e[1]));
        const on = tab === active;
        // A queue absent from the overview has nothing in any state the broker counts.
        const n = o.data ? (stats ? countOf(stats, tab) : 0) : undefined;
        const off = on ? null : tabOff(o.data?.capabilities, tab);
        const count =
          n !== undefined ? (
            <span
              className="ml-1.5 rounded-full bg-zinc-100 px-1.5 py-0.5 text-xs tabular-nums text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300"
              data-testid={`tab-count-${tab}`}
              title={countTitle(stats?.capped?.[tab]) ?? o.data?.unknownWhy?.[tab]}
            >
              {formatCount(n, stats?.capped?.[tab])}
            </span>
          ) : null;
        if (off)
          return (
            <span
              key={tab}
              role="tab"
              aria-selected={false}
              aria-disabled="true"
              title={off}
              data-testid={`tab-${tab}`}
              className="-mb-px cursor-not-allowed border-b-2 border-transparent px-3 py-2 text-sm font-medium text-zinc-400 dark:text-zinc-600"
            >
              {label}
              {count}
            </span>
          );
        return (
          <Link
            key={tab}
            role="tab"
            aria-selected={on}
            href={`${base}?${qs.toString()}`}
            data-testid={`tab-${tab}`}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${on ? 'border-sky-600 text-sky-700 dark:text-sky-400' : 'border-transparent text-zinc-500 dark:text-zinc-400 hover:text-zinc-800 dark:hover:text-zinc-200'}`}
          >
            {label}
            {count}
          </Link>
        );
      })}
    </nav>
  );
}
