import Link from 'next/link';
import type { ReactNode } from 'react';
import { visible } from '@/lib/text/visible';
import { Card, CardHeader } from '@/components/ui/card';
import { FullTime } from '@/components/ui/time';

export function Field({ label, children, testId, title }: { label: string; children: ReactNode; testId?: string; title?: string }) {
  return (
    <>
      <dt className="text-zinc-500 dark:text-zinc-400" title={title}>
        {label}
      </dt>
      <dd className="min-w-0 break-all" data-testid={testId}>
        {children}
      </dd>
    </>
  );
}

/** The id and the link to its audit trail, first on every task or letter page; `noun` is the
 *  system's word for a task ("job"). */
export function IdFields({ brokerId, id, noun = 'task' }: { brokerId: string; id: string; noun?: string }) {
  return (
    <>
      <Field label="Id" testId="detail-id">
        <span className="font-mono text-xs">{visible(id)}</span>
      </Field>
      <Field label="History">
        <Link
          className="link"
          data-testid="detail-history"
          href={`/audit?${new URLSearchParams({ broker: brokerId, task: id }).toString()}`}
        >
          Audit trail of this {noun}
        </Link>{' '}
        ·{' '}
        <Link
          className="link"
          data-testid="detail-campaigns"
          href={`/campaigns?${new URLSearchParams({ broker: brokerId, task: id }).toString()}`}
        >
          Campaigns that replayed it
        </Link>
      </Field>
    </>
  );
}

export function Fields({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-2 p-4 text-sm">{children}</dl>;
}

export function TimeField({ label, iso }: { label: string; iso: string | null }) {
  return (
    <Field label={label}>
      <FullTime iso={iso} />
    </Field>
  );
}

export function Section({
  title,
  children,
  testId,
  actions,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
  actions?: ReactNode;
}) {
  return (
    <Card testId={testId}>
      <CardHeader title={title}>{actions}</CardHeader>
      <div className="p-4">{children}</div>
    </Card>
  );
}
