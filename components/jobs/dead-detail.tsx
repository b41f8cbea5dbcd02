'use client';
import { useRouter } from 'next/navigation';
import Link from 'next/link';
import { ConfirmAction } from '@/components/actions/confirm-action';
import { MoveAction } from '@/components/actions/move-action';
import { deadMoveOff } from '@/components/actions/move-off';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { CommandLine } from '@/components/ui/copy-button';
import { ErrorBox, Loading } from '@/components/ui/states';
import { useToasts } from '@/components/ui/toasts';
import type { Capabilities } from '@/lib/brokers/schema';
import { afterReplay } from '@/lib/client/after-replay';
import { describeError } from '@/lib/client/api';
import { fillCommand } from '@/lib/client/cli';
import { useDead, useOverview } from '@/lib/client/hooks';
import { Field, Fields, IdFields, Section, TimeField } from './detail-parts';
import { MessageSections } from './message-sections';
import { taskWords } from './task-words';
import { EditReplay } from '@/components/dead/edit-replay';
import { visible } from '@/lib/text/visible';

const off = (caps: Capabilities | undefined, c: 'replay' | 'discard') =>
  caps && !caps[c].on ? (caps[c].why ?? `${c} unavailable`) : undefined;

/** One dead letter: why it died (full traceback), its payload and stored result. */
export function DeadDetailView({ brokerId, id }: { brokerId: string; id: string }) {
  const q = useDead(brokerId, id);
  const o = useOverview(brokerId);
  const router = useRouter();
  const toast = useToasts();
  const base = `/brokers/${encodeURIComponent(brokerId)}`;
  if (q.error && !q.data) return <ErrorBox {...describeError(q.error)} />;
  if (!q.data) return <Loading />;
  const d = q.data;
  const caps = o.data?.capabilities;
  const calls = o.data?.model?.calls;
  // Letters that can leave as calls get "Move to broker…"; the dialog lists where to.
  const movable = !!calls && 'does' in calls.export;
  const cli = fillCommand(o.data?.model?.actions.replay.cli, { ids: [d.id] });
  // After a successful replay/discard the letter is gone; go to where the task is now.
  const after = (path: string) => (r: { succeeded: unknown[] }) => {
    if (r.succeeded.length) setTimeout(() => router.push(path), 1200);
  };
  return (
    <div className="grid gap-6" data-testid="dead-detail">
      <Card>
        <CardHeader
          title={
            <span className="break-all" data-testid="detail-task">
              {visible(d.task)}
            </span>
          }
        >
          <Badge tone="red" testId="detail-state">
            dead
          </Badge>
          <ConfirmAction
            kind="replay"
            brokerId={brokerId}
            queue={d.queue}
            ids={[d.id]}
            size="md"
            disabledReason={off(caps, 'replay') ?? d.unavailable?.replay}
            onDone={(r) => {
              // Where a replay is a new task (QueueFlow), go to that one; else the letter's own id:
              // its page where the broker can show it, else the dead letters with a notice.
              const done = r.succeeded[0];
              if (!done) return;
              const next = afterReplay(brokerId, caps, done.taskId ?? d.id, done.message);
              setTimeout(() => {
                if (next.notice) toast([next.notice]);
                router.push(next.href);
              }, 1200);
            }}
          />
          {d.conversion ? (
            <ConfirmAction
              kind="convert"
              brokerId={brokerId}
              queue={d.queue}
              ids={[d.id]}
              size="md"
              disabledReason={d.conversion.ok ? off(caps, 'replay') : d.conversion.error}
              onDone={after(`${base}/dead`)}
              details={
                d.conversion.ok ? <ConversionPreview to={d.conversion.to} note={d.conversion.note} json={d.conversion.json} /> : null
              }
            />
          ) : null}
          <ConfirmAction
            kind="discard"
            brokerId={brokerId}
            queue={d.queue}
            ids={[d.id]}
            size="md"
            disabledReason={off(caps, 'discard')}
            onDone={after(`${base}/dead`)}
          />
          {movable ? (
            <MoveAction
              brokerId={brokerId}
              queue={d.queue}
              ids={[d.id]}
              size="md"
              disabledReason={deadMoveOff(caps, o.data?.model)}
              onDone={after(`${base}/dead`)}
            />
          ) : null}
        </CardHeader>
        {q.error ? (
          <div className="px-4 pt-2">
            <ErrorBox {...describeError(q.error)} />
          </div>
        ) : null}
        <Fields>
          <IdFields brokerId={brokerId} id={d.id} noun={taskWords(o.data?.model).noun} />
          <Field label="Queue">
            <Link className="link" href={`${base}/dead?queue=${encodeURIComponent(d.queue)}`}>
              {visible(d.queue)}
            </Link>
          </Field>
          <TimeField label="Died" iso={d.diedAt} />
          <Field label="Reason" testId="detail-summary">
            {visible(d.summary)}
          </Field>
          {d.cause ? (
            <Field label="Cause" testId="detail-cause">
              <span className="font-mono text-xs">{visible(d.cause)}</span>
            </Field>
          ) : null}
          {d.replayed ? (
            <Field label="Replayed" testId="detail-replayed">
              {d.replayed.taskId ? (
                <>
                  as{' '}
                  <Link className="link font-mono text-xs" href={`${base}/jobs/${encodeURIComponent(d.replayed.taskId)}`}>
                    {visible(d.replayed.taskId)}
                  </Link>
                </>
              ) : (
                'yes'
              )}
              {d.replayed.at ? <span className="text-xs text-zinc-500 dark:text-zinc-400"> ({d.replayed.at})</span> : null}
            </Field>
          ) : null}
        </Fields>
        {cli ? (
          <div className="px-4 pb-4">
            <CommandLine command={cli} />
          </div>
        ) : null}
      </Card>
      <Section title="Reason (full)" testId="reason-section">
        {d.reason ? (
          <pre
            data-testid="dead-reason"
            className="max-h-[32rem] overflow-auto rounded-md bg-zinc-100 p-3 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-950"
          >
            {visible(d.reason)}
          </pre>
        ) : (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">No reason stored.</p>
        )}
      </Section>
      <EditReplay brokerId={brokerId} d={d} />
      <MessageSections brokerId={brokerId} kind="dead" item={d} />
    </div>
  );
}

/** The exact message a conversion sends (`note`: what is stamped again on send). */
function ConversionPreview({ to, note, json }: { to: string; note: string; json: string }) {
  return (
    <div data-testid="convert-preview">
      <p className="mb-1 text-xs text-zinc-500 dark:text-zinc-400">
        {to} message to send ({note}):
      </p>
      <pre className="max-h-48 overflow-auto rounded-md bg-zinc-100 p-2 font-mono text-xs break-all whitespace-pre-wrap dark:bg-zinc-950">
        {json}
      </pre>
    </div>
  );
}
