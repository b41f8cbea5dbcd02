import Link from 'next/link';
import { MigrationMoves } from '@/components/migration/migration-moves';
import { MigrationTable } from '@/components/migration/migration-table';
import { Card, CardHeader } from '@/components/ui/card';
import { PageTitle } from '@/components/ui/states';
import { requireReader } from '@/lib/auth/current';
import { migrationFor, otherBrokers } from '@/lib/actions/migration';
import { segment } from '../../../_lib/params';
import { brokerTitle } from '../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Migration');

type Props = { params: Promise<{ brokerId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The migration view of this broker and `?to=` (docs/migrating-to-queueflow.md, "The migration view"). */
export default async function MigratePage({ params, searchParams }: Props) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const raw = (await searchParams).to;
  const to = typeof raw === 'string' && raw ? raw : null;
  const others = otherBrokers(brokerId);
  const view = to ? await migrationFor(brokerId, to) : null;
  return (
    <>
      <PageTitle sub="Per task name, what waits and what failed on each side of a migration, which names are mapped, which ones the target's workers have no handler for, and the moves done so far. Counts come from bounded reads: “≥” where a read stopped at its cap, “—” where a side could not be read.">
        Migration
      </PageTitle>
      <nav className="mb-4 flex flex-wrap gap-2 text-sm" data-testid="migration-targets">
        <span>Compare with:</span>
        {others.map((b) => (
          <Link
            key={b.id}
            href={`/brokers/${encodeURIComponent(brokerId)}/migrate?to=${encodeURIComponent(b.id)}`}
            className={`rounded px-2 py-0.5 ${b.id === to ? 'bg-zinc-200 font-medium dark:bg-zinc-800' : 'underline'}`}
          >
            {b.name}
          </Link>
        ))}
      </nav>
      {view ? (
        <div className="grid gap-4">
          <Card testId="migration-view">
            <CardHeader title={`${view.source.name} → ${view.target.name}`}>
              <Link className="text-sm underline" href={`/brokers/${encodeURIComponent(brokerId)}/mappings`}>
                Mappings
              </Link>
            </CardHeader>
            <p className="px-4 pt-3 text-sm" data-testid="migration-pairing">
              {view.pairing.on ? `Moves: ${view.pairing.words}` : `Moves are not offered: ${view.pairing.words}`}
            </p>
            {[view.source, view.target].map((s) =>
              s.notes.length ? (
                <p key={s.id} className="px-4 pt-1 text-sm text-zinc-600 dark:text-zinc-400">
                  {s.name}: {s.notes.join('; ')}
                </p>
              ) : null,
            )}
            <MigrationTable view={view} />
          </Card>
          <Card testId="migration-history">
            <CardHeader title="Moves so far" />
            <MigrationMoves view={view} />
          </Card>
        </div>
      ) : (
        <p className="text-sm text-zinc-500">Pick the broker the work moves to (or comes from).</p>
      )}
    </>
  );
}
