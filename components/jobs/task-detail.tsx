'use client';
import Link from 'next/link';
import { ConfirmAction } from '@/components/actions/confirm-action';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { CommandLine } from '@/components/ui/copy-button';
import { ErrorBox, Loading } from '@/components/ui/states';
import { describeError } from '@/lib/client/api';
import { fillCommand } from '@/lib/client/cli';
import { useOverview, useTask } from '@/lib/client/hooks';
import { Field, Fields, TimeField } from './detail-parts';
import { MessageSections } from './message-sections';
import { visible } from '@/lib/text/visible';

/** A waiting or running task: header, typed arguments, raw JSON, stored result. */
export function TaskDetailView({ brokerId, id }: { brokerId: string; id: string }) {
  const q = useTask(brokerId, id);
  const o = useOverview(brokerId);
  if (q.error && !q.data) {
    const e = describeError(q.error);
    return (
      <ErrorBox {...e}>
        {e.code === 'NotFound' ? (
          <p className="mt-2 text-sm">
            It may have finished, been revoked or dead-lettered.{' '}
            <Link className="link" href={`/brokers/${encodeURIComponent(brokerId)}/dead/${encodeURIComponent(id)}`}>
              Look in the dead letters
            </Link>
          </p>
        ) : null}
      </ErrorBox>
    );
  }
  if (!q.data) return <Loading />;
  const t = q.data;
  const cap = o.data?.capabilities.revoke;
  const cli = fillCommand(o.data?.model?.actions.revoke.cli, { ids: [t.id] });
  // A worker owns tasks in some states (potatoq: running): the console never changes those.
  const decl = o.data?.model?.states.find((st) => st.key === t.state);
  const owned = decl?.owned ?? false;
  const qBase = `/brokers/${encodeURIComponent(brokerId)}/queues/${encodeURIComponent(t.queue)}`;
  return (
    <div className="grid gap-6" data-testid="task-detail">
      <Card>
        <CardHeader title={<span className="break-all" data-testid="detail-task">{visible(t.task)}</span>}>
          <Badge tone={owned ? 'blue' : (o.data?.model?.states.findIndex((st) => st.key === t.state) ?? 0) > 0 ? 'purple' : 'green'} testId="detail-state">
            {t.state}
          </Badge>
          {!owned ? (
            <ConfirmAction kind="revoke" brokerId={brokerId} queue={t.queue} ids={[t.id]} size="md" disabledReason={cap && !cap.on ? cap.why ?? 'revoke unavailable' : undefined} />
          ) : null}
        </CardHeader>
        {q.error ? <div className="px-4 pt-2"><ErrorBox {...describeError(q.error)} /></div> : null}
        <Fields>
          <Field label="Id" testId="detail-id"><span className="font-mono text-xs">{visible(t.id)}</span></Field>
          <Field label="History"><Link className="link" data-testid="detail-history" href={`/audit?${new URLSearchParams({ broker: brokerId, task: t.id }).toString()}`}>Audit trail of this task</Link></Field>
          <Field label="Queue"><Link className="link" href={`${qBase}?state=${t.state}`}>{visible(t.queue)}</Link></Field>
          <Field label="Priority">{t.priority}</Field>
          <Field label="Deliveries">{t.deliveries}</Field>
          {t.worker ? <Field label="Worker"><span className="font-mono text-xs">{visible(t.worker)}{t.pid ? ` (pid ${t.pid})` : ''}</span></Field> : null}
          <TimeField label="Enqueued" iso={t.createdAt} />
          <TimeField label="Runs at" iso={t.runAt} />
          {t.claimedAt ? <TimeField label="Claimed" iso={t.claimedAt} /> : null}
        </Fields>
        {owned ? (
          <p className="px-4 pb-4 text-xs text-zinc-500 dark:text-zinc-400">{decl?.label ?? t.state}: its worker owns it. The console does not change {(decl?.label ?? t.state).toLowerCase()} tasks.</p>
        ) : (
          cli ? <div className="px-4 pb-4"><CommandLine command={cli} /></div> : null
        )}
      </Card>
      <MessageSections brokerId={brokerId} kind="task" item={t} />
    </div>
  );
}
