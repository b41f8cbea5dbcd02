import type { ReactNode } from 'react';
import { Card, CardHeader } from '@/components/ui/card';
import { FullTime } from '@/components/ui/time';

export function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 break-all" data-testid={testId}>
        {children}
      </dd>
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
