'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { ConfirmAction } from '@/components/actions/confirm-action';
import { MoveAction, waitingMoveOff } from '@/components/actions/move-action';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { CommandLine } from '@/components/ui/copy-button';
import { ErrorBox, Loading } from '@/components/ui/states';
import { describeError } from '@/lib/client/api';
import { fillCommand } from '@/lib/client/cli';
import { useOverview, useTask } from '@/lib/client/hooks';
import { Field, Fields, IdFields, TimeField } from './detail-parts';
import { MessageSections } from './message-sections';
import { ResultView } from './result-view';
import { TaskStuckFlags } from '@/components/triage/stuck-flags';
import { revokeWords, taskWords } from './task-words';
import { defaultState, type ResultRecordDto } from '@/lib/brokers/schema';
import { visible } from '@/lib/text/visible';

/** What the server found for a task no longer waiting or running (null: it still was). */
export interface AfterWaiting {
  result: ResultRecordDto | null;
  /** A dead letter with this id exists. */
  dead: boolean;
}

/** A waiting or running task: header, typed arguments, raw JSON, stored result. Once it is
 *  gone (finished, revoked, dead-lettered), its result or its dead letter instead. */
export function TaskDetailView({ brokerId, id, after }: { brokerId: string; id: string; after: AfterWaiting | null }) {
  const q = useTask(brokerId, id);
  const o = useOverview(brokerId);
  const router = useRouter();
  // While the revoke dialog is open its outcome stays on screen; the page follows once it closes.
  const [dialogOpen, setDialogOpen] = useState(false);
  const err = q.error ? describeError(q.error) : null;
  // NotFound wins over data read earlier: the task left the queue (e.g. revoked here).
  const gone = err?.code === 'NotFound' && !(dialogOpen && q.data);
  useEffect(() => {
    // The server page looks up the result of a task that is gone; ask it again once.
    if (gone && !after) router.refresh();
  }, [gone, after, router]);
  if (gone && after && (after.result || after.dead)) return <FinishedTask brokerId={brokerId} id={id} after={after} />;
  if (err && (gone || !q.data)) {
    return (
      <ErrorBox {...err}>
        {gone ? (
          <p className="mt-2 text-sm">
            It may have finished, been {revokeWords(o.data?.model).past} or dead-lettered, and no result is stored for it.{' '}
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
  const moveOff = waitingMoveOff(o.data?.model);
  const words = taskWords(o.data?.model);
  const states = o.data?.model?.states ?? [];
  // A time is headed as the column of the system's state that shows it ("ETA", "Reserved"); a
  // claim is SDJ's start (its running state shows `startedAt`, the same time).
  const timeLabel = (fields: string[], fallback: string) => states.find((st) => fields.includes(st.time.field))?.time.label ?? fallback;
  const qBase = `/brokers/${encodeURIComponent(brokerId)}/queues/${encodeURIComponent(t.queue)}`;
  return (
    <div className="grid gap-6" data-testid="task-detail">
      <Card>
        <CardHeader
          title={
            <span className="break-all" data-testid="detail-task">
              {visible(t.task)}
            </span>
          }
        >
          <Badge
            tone={owned ? 'blue' : decl && decl.key !== defaultState(o.data?.model?.states ?? [])?.key ? 'purple' : 'green'}
            testId="detail-state"
          >
            {t.state}
          </Badge>
          {!owned ? (
            <ConfirmAction
              kind="revoke"
              brokerId={brokerId}
              queue={t.queue}
              ids={[t.id]}
              size="md"
              disabledReason={cap && !cap.on ? (cap.why ?? 'revoke unavailable') : undefined}
              onOpenChange={setDialogOpen}
            />
          ) : null}
          {!owned && moveOff !== null ? (
            <MoveAction
              from="waiting"
              brokerId={brokerId}
              queue={t.queue}
              ids={[t.id]}
              size="md"
              disabledReason={moveOff || undefined}
              onOpenChange={setDialogOpen}
            />
          ) : null}
        </CardHeader>
        {q.error && err?.code !== 'NotFound' ? (
          <div className="px-4 pt-2">
            <ErrorBox {...describeError(q.error)} />
          </div>
        ) : null}
        <Fields>
          <IdFields brokerId={brokerId} id={t.id} noun={words.noun} />
          <Field label="Queue">
            <Link className="link" href={`${qBase}?state=${t.state}`}>
              {visible(t.queue)}
            </Link>
          </Field>
          <Field label="Priority">{t.priority}</Field>
          <Field label={words.deliveries.label} title={words.deliveries.help}>
            {t.deliveries}
          </Field>
          {t.worker ? (
            <Field label="Worker">
              <span className="font-mono text-xs">
                {visible(t.worker)}
                {t.pid ? ` (pid ${t.pid})` : ''}
              </span>
            </Field>
          ) : null}
          <TimeField label={timeLabel(['createdAt'], 'Enqueued')} iso={t.createdAt} />
          <TimeField label={timeLabel(['runAt'], 'Runs at')} iso={t.runAt} />
          {t.claimedAt ? <TimeField label={timeLabel(['claimedAt', 'startedAt'], 'Claimed')} iso={t.claimedAt} /> : null}
        </Fields>
        {owned ? (
          <p className="px-4 pb-4 text-xs text-zinc-500 dark:text-zinc-400">
            {decl?.label ?? t.state}: its worker owns it. The console does not change {(decl?.label ?? t.state).toLowerCase()} {words.nouns}
            .
          </p>
        ) : cli ? (
          <div className="px-4 pb-4">
            <CommandLine command={cli} />
          </div>
        ) : null}
        <TaskStuckFlags brokerId={brokerId} task={t} noun={words.noun} />
      </Card>
      <MessageSections brokerId={brokerId} kind="task" item={t} />
    </div>
  );
}

/** A task that is no longer waiting or running: what its stored result says, or where its letter is. */
function FinishedTask({ brokerId, id, after }: { brokerId: string; id: string; after: AfterWaiting }) {
  const b = `/brokers/${encodeURIComponent(brokerId)}`;
  return (
    <div className="grid gap-6" data-testid="task-finished">
      <Card>
        <CardHeader title={<span className="break-all">{after.result?.name ? visible(after.result.name) : 'Not waiting or running'}</span>}>
          {after.result ? (
            <Badge tone="neutral" testId="detail-state">
              {after.result.status.toLowerCase()}
            </Badge>
          ) : null}
          {after.dead ? (
            <Badge tone="red" testId="detail-dead">
              dead letter
            </Badge>
          ) : null}
        </CardHeader>
        <p className="px-4 pt-3 text-sm text-zinc-600 dark:text-zinc-300" data-testid="task-finished-note">
          This task is no longer waiting or running{after.result ? `; its stored result says ${after.result.status}` : ''}.
          {after.dead ? (
            <>
              {' '}
              It is a{' '}
              <Link className="link" href={`${b}/dead/${encodeURIComponent(id)}`} data-testid="task-dead-link">
                dead letter
              </Link>
              .
            </>
          ) : null}{' '}
          <Link
            className="link"
            href={`/audit?${new URLSearchParams({ broker: brokerId, task: id }).toString()}`}
            data-testid="detail-history"
          >
            Audit trail of this task
          </Link>{' '}
          ·{' '}
          <Link
            className="link"
            href={`/campaigns?${new URLSearchParams({ broker: brokerId, task: id }).toString()}`}
            data-testid="task-campaigns"
          >
            Campaigns that replayed it
          </Link>
        </p>
        <div className="p-4">
          <ResultView result={after.result} />
        </div>
      </Card>
    </div>
  );
}
