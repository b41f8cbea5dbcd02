import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AuditFindCard, BrokerFindCard, PendingFindCard } from '@/components/find/find-results';
import { Empty, PageTitle } from '@/components/ui/states';
import { getAuditStore } from '@/lib/audit/store';
import { ZAuditQuery } from '@/lib/audit/types';
import { requireReader } from '@/lib/auth/current';
import { brokerList, findInBroker } from '@/lib/brokers/service';
import { visible } from '@/lib/text/visible';
import { one, type SearchParams } from '../_lib/params';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Find by id' };

async function Found({ brokerId, id }: { brokerId: string; id: string }) {
  return <BrokerFindCard id={id} found={await findInBroker(brokerId, id)} />;
}

async function Audit({ id }: { id: string }) {
  // Read first, render after: an unreadable audit trail is a message, not an error page.
  const read = await getAuditStore()
    .then((store) => store.list(ZAuditQuery.parse({ task: id, limit: 10 })))
    .then(
      (page) => ({ entries: page.entries, error: null }),
      (e: unknown) => ({ entries: [], error: `the audit trail cannot be read: ${e instanceof Error ? e.message : String(e)}` }),
    );
  return <AuditFindCard id={id} entries={read.entries} error={read.error} />;
}

/** An id looked up in every configured broker (waiting, running, dead, results) and the audit trail. */
export default async function FindPage({ searchParams }: { searchParams: SearchParams }) {
  await requireReader();
  const id = one((await searchParams).id);
  if (!id) {
    return (
      <>
        <PageTitle>Find by id</PageTitle>
        <Empty>Type a task id in the box at the top (shortcut: /).</Empty>
      </>
    );
  }
  return (
    <>
      <PageTitle
        sub={
          <span className="font-mono text-xs break-all" data-testid="find-id">
            {visible(id)}
          </span>
        }
      >
        Find by id
      </PageTitle>
      <div className="grid gap-4">
        {brokerList().map((b) => (
          <Suspense key={b.id} fallback={<PendingFindCard brokerId={b.id} name={b.name} />}>
            <Found brokerId={b.id} id={id} />
          </Suspense>
        ))}
        <Suspense fallback={null}>
          <Audit id={id} />
        </Suspense>
      </div>
    </>
  );
}
