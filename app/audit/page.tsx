import type { Metadata } from 'next';
import Link from 'next/link';
import { AuditFilters } from '@/components/audit/audit-filters';
import { AuditTable } from '@/components/audit/audit-table';
import { ErrorBox, PageTitle } from '@/components/ui/states';
import { getAuditStore } from '@/lib/audit/store';
import { ZAuditQuery } from '@/lib/audit/types';
import { requireReader } from '@/lib/auth/current';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit trail' };

type SP = Record<string, string | string[] | undefined>;

/** Every action taken through the console, newest first, filterable; `?task=` is one task's history. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SP> }) {
  await requireReader();
  const raw = Object.fromEntries(Object.entries(await searchParams).flatMap(([k, v]) => (typeof v === 'string' && v ? [[k, v]] : [])));
  const q = ZAuditQuery.safeParse(raw);
  if (!q.success) return <ErrorBox code="InvalidInput" message={q.error.issues[0]?.message ?? 'bad filter'} />;
  let page;
  try {
    page = await (await getAuditStore()).list(q.data);
  } catch (e) {
    return <ErrorBox code="Internal" message={`the audit trail cannot be read: ${(e as Error).message}`} />;
  }
  const next = page.nextCursor ? `/audit?${new URLSearchParams({ ...raw, cursor: page.nextCursor }).toString()}` : null;
  return (
    <>
      <PageTitle
        sub={
          q.data.task ? (
            <span className="font-mono text-xs break-all">history of {q.data.task}</span>
          ) : (
            'Who did what, when, why, and what happened to each id'
          )
        }
      >
        Audit trail
      </PageTitle>
      <AuditFilters values={raw} />
      <AuditTable entries={page.entries} />
      {next ? (
        <p className="mt-3 text-sm">
          <Link href={next} className="link" data-testid="audit-older">
            Older entries
          </Link>
        </p>
      ) : null}
    </>
  );
}
