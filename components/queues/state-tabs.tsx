import Link from 'next/link';

import type { QueueTab } from './tabs';

/** Tabs are links that keep the other filters in the URL. */
export function StateTabs({
  base,
  tabs,
  active,
  params,
}: {
  base: string;
  tabs: QueueTab[];
  active: string;
  params: Record<string, string | undefined>;
}) {
  return (
    <nav aria-label="Task state" className="flex gap-1 border-b border-zinc-200 px-2 dark:border-zinc-800" role="tablist">
      {tabs.map(({ key: tab, label }) => {
        const all: Record<string, string | undefined> = { ...params, state: tab };
        const qs = new URLSearchParams(Object.entries(all).filter((e): e is [string, string] => !!e[1]));
        const on = tab === active;
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
          </Link>
        );
      })}
    </nav>
  );
}
