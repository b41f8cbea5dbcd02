'use client';
import Link from 'next/link';
import { useMemo, useState, useSyncExternalStore } from 'react';
import { useBrokerAction } from '@/components/actions/use-broker-action';
import { Button } from '@/components/ui/button';
import { CommandLine } from '@/components/ui/copy-button';
import { ErrorBox } from '@/components/ui/states';
import { enqueueAction } from '@/lib/actions/broker-actions';
import { ApiError } from '@/lib/client/api';
import { TOKEN_PLACEHOLDER, curlCommand } from '@/lib/client/curl';
import { formatUtc } from '@/lib/client/format';
import { useDebounced } from '@/lib/client/use-debounced';
import { useEnqueuePreview, useOverview, useTaskNames } from '@/lib/client/hooks';
import { Field, JsonField } from './fields';
import { INITIAL, checkForm, localToIso, toRequest, type FormValues } from './form-model';

const noSubscribe = () => () => {};

/** Enqueue one task: validated in the browser with the server's own rules, written by the gate. */
export function EnqueueForm({ brokerId }: { brokerId: string }) {
  const [v, setV] = useState<FormValues>(INITIAL);
  const [touched, setTouched] = useState(false);
  const names = useTaskNames(brokerId);
  const o = useOverview(brokerId);
  const m = useBrokerAction(brokerId, (req: Record<string, unknown>) => enqueueAction(brokerId, req));
  const check = useMemo(() => checkForm(v), [v]);
  const set =
    <K extends keyof FormValues>(k: K) =>
    (value: FormValues[K]) => {
      setV((prev) => ({ ...prev, [k]: value }));
      if (m.data) m.reset();
    };
  const serverFields = m.data && !m.data.ok ? (m.data.error.fields ?? {}) : {};
  // The preview is the adapter's build of the message: its field errors (a malformed tagged
  // value, say) count like the form's own.
  const request = useMemo(() => toRequest(v), [v]);
  const previewRequest = useDebounced(request, 250);
  const preview = useEnqueuePreview(brokerId, previewRequest, check.ok);
  const current = preview.data && previewRequest === request ? preview.data : undefined;
  const previewFields = preview.error instanceof ApiError ? (preview.error.fields ?? { _: preview.error.message }) : {};
  const fields: Record<string, string> = check.ok ? (previewRequest === request ? previewFields : {}) : check.fields;
  const err = (k: string) => serverFields[k] ?? (touched ? fields[k] : undefined);
  const cap = o.data?.capabilities.enqueue;
  const blocked = cap && !cap.on ? (cap.why ?? 'enqueue is not available on this broker') : undefined;
  const etaIso = v.timing === 'eta' ? localToIso(v.eta) : null;
  // The page's origin is known in the browser only (the server renders without it).
  const origin = useSyncExternalStore(
    noSubscribe,
    () => window.location.origin,
    () => '',
  );
  const curl = origin ? curlCommand({ origin, brokerId, action: 'enqueue', body: request }) : '';
  const input = (k: 'task' | 'queue' | 'priority' | 'countdown' | 'expires', extra: Record<string, unknown> = {}) => ({
    id: `f-${k}`,
    name: k,
    value: v[k],
    onChange: (e: { target: { value: string } }) => set(k)(e.target.value),
    'aria-invalid': !!err(k),
    'data-testid': `enqueue-${k}`,
    className: 'input',
    ...extra,
  });
  return (
    <form
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]"
      data-testid="enqueue-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (check.ok) m.mutate(request);
      }}
    >
      <div className="grid content-start gap-4">
        {blocked ? <ErrorBox code={cap?.code ?? 'Unsupported'} message={blocked} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Task name" name="task" error={err('task')}>
            <input
              {...input('task', {
                list: 'task-names',
                autoComplete: 'off',
                placeholder: 'app.tasks.send_email',
                'data-shortcut': 'search',
              })}
            />
            <datalist id="task-names">
              {(names.data ?? []).map((n) => (
                <option key={n} value={n} />
              ))}
            </datalist>
          </Field>
          <Field label="Queue" name="queue" error={err('queue')}>
            <input {...input('queue', { list: 'queue-names', autoComplete: 'off' })} />
            <datalist id="queue-names">
              {(o.data?.queues ?? []).map((q) => (
                <option key={q.name} value={q.name} />
              ))}
            </datalist>
          </Field>
        </div>
        <JsonField label="Arguments (JSON list)" name="args" value={v.args} onChange={set('args')} error={err('args')} container="list" />
        <JsonField
          label="Keyword arguments (JSON object)"
          name="kwargs"
          value={v.kwargs}
          onChange={set('kwargs')}
          error={err('kwargs')}
          container="object"
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="Priority" name="priority" error={err('priority')} hint="Higher runs first.">
            <input {...input('priority', { inputMode: 'numeric' })} />
          </Field>
          <fieldset className="grid content-start gap-1 text-sm sm:col-span-2">
            <legend className="mb-1 font-medium">When</legend>
            <div className="flex flex-wrap gap-3">
              {(['now', 'countdown', 'eta'] as const).map((t) => (
                <label key={t} className="flex items-center gap-1">
                  <input
                    type="radio"
                    name="timing"
                    checked={v.timing === t}
                    onChange={() => set('timing')(t)}
                    data-testid={`timing-${t}`}
                  />
                  {t === 'now' ? 'Now' : t === 'countdown' ? 'After a countdown' : 'At a time (eta)'}
                </label>
              ))}
            </div>
            {v.timing === 'countdown' ? (
              <Field label="Countdown (seconds)" name="countdown" error={err('countdown')}>
                <input {...input('countdown', { inputMode: 'decimal', placeholder: '60' })} />
              </Field>
            ) : null}
            {v.timing === 'eta' ? (
              <Field
                label="Eta (your local time)"
                name="eta"
                error={err('eta')}
                hint={etaIso ? `= ${formatUtc(etaIso)}` : 'Stored as UTC.'}
              >
                <input
                  id="f-eta"
                  type="datetime-local"
                  step="1"
                  className="input"
                  value={v.eta}
                  onChange={(e) => set('eta')(e.target.value)}
                  data-testid="enqueue-eta"
                />
              </Field>
            ) : null}
          </fieldset>
        </div>
        <Field
          label="Expires"
          name="expires"
          error={err('expires')}
          hint="Seconds from now, or an ISO 8601 date-time with offset. Empty: never."
        >
          <input {...input('expires', { placeholder: '3600 or 2026-12-01T00:00:00+00:00' })} />
        </Field>
        <JsonField
          label="Headers (JSON object)"
          name="headers"
          value={v.headers}
          onChange={set('headers')}
          error={err('headers')}
          container="object"
          rows={2}
          helpers={false}
        />
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={m.isPending || !!blocked} data-testid="enqueue-submit">
            {m.isPending ? 'Enqueueing…' : `Enqueue on ${brokerId}`}
          </Button>
          {touched && fields._ ? <span className="text-sm text-red-600">{fields._}</span> : null}
        </div>
        {m.data && !m.data.ok ? <ErrorBox code={m.data.error.code} message={m.data.error.message} /> : null}
        {m.error ? <ErrorBox code="Error" message={m.error.message} /> : null}
        {m.data?.ok ? (
          <div
            role="status"
            data-testid="enqueue-success"
            className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/40"
          >
            Enqueued as {m.data.data.state} in <strong>{m.data.data.queue}</strong>:{' '}
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
      <aside className="grid content-start gap-3 text-sm">
        <h2 className="font-semibold">Message preview</h2>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          The exact JSON that will be written; the id and enqueued_at are set again at write time.
        </p>
        <pre
          data-testid="enqueue-preview"
          className="max-h-96 overflow-auto rounded-md bg-zinc-100 p-3 font-mono text-xs break-all whitespace-pre-wrap dark:bg-zinc-950"
        >
          {Object.keys(fields).length
            ? Object.entries(fields)
                .map(([k, msg]) => `${k}: ${msg}`)
                .join('\n')
            : (current?.payload ?? '…')}
        </pre>
        {current?.command ? (
          <>
            <h2 className="font-semibold">Command line</h2>
            <CommandLine command={current.command.line} />
            {current.command.missing.length ? (
              <p className="text-xs text-amber-700 dark:text-amber-400">
                The command cannot set {current.command.missing.join(', ')}; it leaves them out.
              </p>
            ) : null}
          </>
        ) : null}
        {curl ? (
          <CommandLine
            command={curl}
            testId="curl-command"
            caption={`The same through the console's API (an API token in ${TOKEN_PLACEHOLDER})`}
            copyLabel="Copy as curl"
          />
        ) : null}
      </aside>
    </form>
  );
}
