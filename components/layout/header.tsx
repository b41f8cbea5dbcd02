'use client';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { brokerBadge, type BrokerEntry } from '@/lib/brokers/naming';
import { EnvironmentBadge } from './environment-badge';
import { LiveStatusLine } from './live-status';
import { RefreshIndicator } from './refresh-indicator';
import { Shortcuts } from './shortcuts';
import { ThemeToggle } from './theme-toggle';

export type BrokerLink = Pick<BrokerEntry, 'id' | 'name' | 'systemLabel' | 'storeLabel'> & {
  /** The system declares schedules (model.schedules): the Schedules tab is offered. */
  schedules?: boolean;
};

const SECTIONS: Array<[string, string, string]> = [
  ['Queues', '', 'nav-queues'],
  ['Dead letters', '/dead', 'nav-dead'],
  ['Workers', '/workers', 'nav-workers'],
  ['Results', '/results', 'nav-results'],
  ['Enqueue', '/enqueue', 'nav-enqueue'],
  ['Schedules', '/schedules', 'nav-schedules'],
  ['Mappings', '/mappings', 'nav-mappings'],
  ['Migration', '/migrate', 'nav-migrate'],
];

function currentBroker(pathname: string): { id: string | null; rest: string } {
  const m = /^\/brokers\/([^/]+)(\/.*)?$/.exec(pathname);
  return m ? { id: decodeURIComponent(m[1]!), rest: m[2] ?? '' } : { id: null, rest: '' };
}

export function Header({ brokers, account }: { brokers: BrokerLink[]; account?: ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const { id, rest } = currentBroker(pathname);
  const active = id ?? brokers[0]?.id ?? null;
  const base = active ? `/brokers/${encodeURIComponent(active)}` : null;
  // Switching brokers keeps the section (dead letters stay dead letters), not ids or queues.
  const section = SECTIONS.find(([, path]) => path && rest.startsWith(path))?.[1] ?? '';
  const isActive = (path: string) =>
    !!id && (path === '' ? rest === '' || rest.startsWith('/queues') || rest.startsWith('/jobs') : rest.startsWith(path));
  const linkClass = (on: boolean) =>
    `rounded-md px-1.5 py-1.5 text-sm font-medium ${on ? 'bg-zinc-200 text-zinc-900 dark:bg-zinc-800 dark:text-white' : 'text-zinc-600 hover:bg-zinc-200/70 dark:text-zinc-300 dark:hover:bg-zinc-800'}`;
  return (
    <header className="sticky top-0 z-10 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/90">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2">
        <Link href="/" className="font-semibold whitespace-nowrap" data-testid="brand">
          potatoq console
        </Link>
        <EnvironmentBadge brokerId={id} />
        <label className="flex items-center gap-1.5 text-sm">
          <span className="sr-only">Broker</span>
          <select
            data-testid="broker-switcher"
            aria-label="Broker"
            className="input max-w-[8rem] py-1"
            value={active ?? ''}
            onChange={(e) => router.push(`/brokers/${encodeURIComponent(e.target.value)}${section}`)}
          >
            {brokers.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name} ({brokerBadge(b)})
              </option>
            ))}
          </select>
        </label>
        <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
          <Link href="/" className={linkClass(pathname === '/')} data-testid="nav-overview">
            Overview
          </Link>
          {base
            ? SECTIONS.filter(([, path]) => path !== '/schedules' || brokers.find((b) => b.id === active)?.schedules).map(
                ([label, path, testId]) => (
                  <Link key={testId} href={`${base}${path}`} className={linkClass(isActive(path))} data-testid={testId}>
                    {label}
                  </Link>
                ),
              )
            : null}
          <Link href="/campaigns" className={linkClass(pathname.startsWith('/campaigns'))} data-testid="nav-campaigns">
            Campaigns
          </Link>
          <Link href="/alerts" className={linkClass(pathname.startsWith('/alerts'))} data-testid="nav-alerts">
            Alerts
          </Link>
          <Link href="/audit" className={linkClass(pathname.startsWith('/audit'))} data-testid="nav-audit">
            Audit
          </Link>
        </nav>
        <div className="ml-auto flex items-center gap-1.5">
          <form action="/find" method="get" role="search" className="flex items-center" data-testid="find-form">
            <label className="sr-only" htmlFor="find-id">
              Find by id
            </label>
            <input
              id="find-id"
              name="id"
              type="search"
              required
              maxLength={500}
              autoComplete="off"
              spellCheck={false}
              placeholder="Find  /"
              className="input w-20 py-1 font-mono text-xs transition-[width] focus:w-48"
              data-shortcut="find"
              data-testid="find-input"
            />
          </form>
          {account}
          <LiveStatusLine />
          <RefreshIndicator />
          <ThemeToggle />
          <Shortcuts />
        </div>
      </div>
    </header>
  );
}
