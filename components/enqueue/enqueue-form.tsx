'use client';
import Link from 'next/link';
import { visible } from '@/lib/text/visible';
import { useMemo, useState, useSyncExternalStore } from 'react';
import { useBrokerAction } from '@/components/actions/use-broker-action';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';
import { enqueueAction } from '@/lib/actions/broker-actions';
import type { EnqueueDecl } from '@/lib/brokers/schema';
import { ApiError } from '@/lib/client/api';
import { curlCommand } from '@/lib/client/curl';
import { useDebounced } from '@/lib/client/use-debounced';
import { useEnqueuePreview, useOverview, useTaskNames, useWorkers } from '@/lib/client/hooks';
import { DeclaredFields } from './declared-fields';
import { EnqueueAside } from './enqueue-aside';
import { checkForm, errorFor, initialValues, toRequest, unplaced, type FormValues } from './form-model';
import { followedQueue, nameWarnings, routeWithSightings } from './routes';
import { TaskFields } from './task-fields';
import { useRecheckUnknownName } from './use-recheck-name';
import { taskWords } from '@/components/jobs/task-words';

const noSubscribe = () => () => {};

/** Enqueue one task with the fields the broker's adapter declares: checked in the browser by the
 *  declaration, built (and checked again) by the adapter for the preview, written by the gate. */
export function EnqueueForm({ brokerId, decl }: { brokerId: string; decl: EnqueueDecl }) {
  const [v, setV] = useState<FormValues>(() => initialValues(decl));
  const [touched, setTouched] = useState(false);
  const [ack, setAck] = useState(false);
  const names = useTaskNames(brokerId);
  useRecheckUnknownName(v.task, names.data?.names, names.refetch);
  const o = useOverview(brokerId);
  const workersOn = !!decl.routes && o.data?.capabilities.workers.on === true;
  const workers = useWorkers(brokerId, workersOn);
  const m = useBrokerAction(brokerId, (req: Record<string, unknown>) => enqueueAction(brokerId, req));
  const update = (f: (prev: FormValues) => FormValues) => {
    setV(f);
    if (m.data) m.reset();
  };
  const seenIn = names.data?.seenIn;
  const route = useMemo(
    () => routeWithSightings(v.task, workersOn ? (workers.data ?? []) : [], seenIn),
    [workersOn, v.task, workers.data, seenIn],
  );
  const queue = followedQueue(route, v.queue, v.queueFollows);
  // Every queue the broker has shown: its listed queues and those its tasks were seen in.
  const queues = useMemo(
    () => [...new Set([...(o.data?.queues ?? []).map((q) => q.name), ...Object.values(seenIn ?? {}).flat()])].sort(),
    [o.data?.queues, seenIn],
  );
  // The queue is checked once the operator typed it (the default or the route's is not a typo).
  const typedQueue = v.queueFollows ? '' : queue;
  const warnings = useMemo(
    () => nameWarnings(v.task, typedQueue, names.data?.names ?? [], queues, route),
    [v.task, typedQueue, names.data?.names, queues, route],
  );
  const check = useMemo(() => checkForm(decl, { ...v, queue }), [decl, v, queue]);
  const request = useMemo(() => toRequest(decl, v, queue), [decl, v, queue]);
  const previewRequest = useDebounced(request, 250);
  const preview = useEnqueuePreview(brokerId, previewRequest, check.ok);
  const settled = previewRequest === request;
  const current = preview.data && settled ? preview.data : undefined;
  // The preview is the adapter's build of the message: its field errors (a malformed tagged
  // value, say) count like the form's own and stop the send.
  const previewFields = preview.error instanceof ApiError ? (preview.error.fields ?? { _: preview.error.message }) : {};
  const fields: Record<string, string> = check.ok ? (settled ? previewFields : {}) : check.fields;
  const serverFields = m.data && !m.data.ok ? (m.data.error.fields ?? {}) : {};
  const shown = { ...(touched ? fields : {}), ...serverFields };
  const err = (k: string) => errorFor(k, shown) ?? undefined;
  const stray = unplaced(shown, ['task', 'queue', ...decl.fields.map((f) => f.key)]);
  const cap = o.data?.capabilities.enqueue;
  const blocked = cap && !cap.on ? (cap.why ?? 'enqueue is not available on this broker') : undefined;
  // The page's origin is known in the browser only (the server renders without it).
  const origin = useSyncExternalStore(
    noSubscribe,
    () => window.location.origin,
    () => '',
  );
  const curl = origin ? curlCommand({ origin, brokerId, action: 'enqueue', body: request }) : '';
  return (
    <form
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]"
      data-testid="enqueue-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        // Confirmed names are sent as meant: the server would refuse a likely misspelling too.
        if (check.ok && !(settled && Object.keys(previewFields).length) && (!warnings.hold || ack))
          m.mutate(warnings.hold ? { ...request, allowUnknown: true } : request);
      }}
    >
      <div className="grid content-start gap-4">
        {blocked ? <ErrorBox code={cap?.code ?? 'Unsupported'} message={blocked} /> : null}
        <TaskFields
          decl={decl}
          nameLabel={taskWords(o.data?.model).name ?? 'Task name'}
          namePlaceholder={taskWords(o.data?.model).payload.shape === 'call' ? 'app.tasks.send_email' : undefined}
          task={v.task}
          queue={queue}
          follows={v.queueFollows}
          route={route}
          warnings={warnings}
          names={names.data?.names ?? []}
          queues={queues}
          err={err}
          onTask={(task) => {
            setAck(false);
            update((p) => ({ ...p, task, queue }));
          }}
          onQueue={(q) => {
            setAck(false);
            update((p) => ({ ...p, queue: q, queueFollows: false }));
          }}
          onFollow={() => update((p) => ({ ...p, queueFollows: true }))}
          ack={ack}
          onAck={setAck}
        />
        <DeclaredFields
          decl={decl}
          v={v}
          err={err}
          setValue={(key, text) => update((p) => ({ ...p, values: { ...p.values, [key]: text } }))}
          choose={(group, key) => update((p) => ({ ...p, chosen: { ...p.chosen, [group]: key } }))}
        />
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={m.isPending || !!blocked} data-testid="enqueue-submit">
            {m.isPending ? 'Enqueueing…' : `Enqueue on ${brokerId}`}
          </Button>
          {stray.length ? (
            <span className="text-sm whitespace-pre-line text-red-600" data-testid="error-other">
              {stray.join('\n')}
            </span>
          ) : null}
          {touched && warnings.hold && !ack ? (
            <span className="text-sm text-amber-700 dark:text-amber-400" data-testid="enqueue-held">
              Not sent: check the names, or tick &ldquo;Enqueue it anyway&rdquo;.
            </span>
          ) : null}
        </div>
        {m.data && !m.data.ok ? <ErrorBox code={m.data.error.code} message={m.data.error.message} /> : null}
        {m.error ? <ErrorBox code="Error" message={m.error.message} /> : null}
        {m.data?.ok ? (
          <div
            role="status"
            data-testid="enqueue-success"
            className={
              m.data.data.outcome?.outcome === 'already'
                ? 'rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-900 dark:bg-amber-950/40'
                : 'rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/40'
            }
          >
            {m.data.data.outcome?.outcome === 'already' ? (
              <span data-testid="enqueue-already">Nothing enqueued: {visible(m.data.data.outcome.message)}. The task: </span>
            ) : (
              <>
                Enqueued as {m.data.data.state} in <strong>{m.data.data.queue}</strong>:{' '}
              </>
            )}
            <Link
              className="link font-mono"
              data-testid="enqueue-new-id"
              href={`/brokers/${encodeURIComponent(brokerId)}/jobs/${encodeURIComponent(m.data.data.id)}`}
            >
              {m.data.data.id}
            </Link>
          </div>
        ) : null}
      </div>
      <EnqueueAside fields={fields} current={current} curl={curl} />
    </form>
  );
}
