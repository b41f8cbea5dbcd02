'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ReasonField } from '@/components/audit/reason-field';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ErrorBox } from '@/components/ui/states';
import { useToasts } from '@/components/ui/toasts';
import { previewReplayEditedAction, replayEditedAction } from '@/lib/actions/broker-actions';
import type { ActionError } from '@/lib/actions/response';
import type { DeadDetail, TypedValue } from '@/lib/brokers/schema';
import type { EditPreview, EditReplayResult, ReplayEditInput } from '@/lib/brokers/schema-edit';
import { afterReplay } from '@/lib/client/after-replay';
import { useOverview } from '@/lib/client/hooks';
import { kwargsWords } from './edit-types';
import { MessageDiff } from './message-diff';
import { ValueEditor } from './value-editor';

/** Edit a dead letter's arguments, keyword arguments (named and typed as the adapter declares), queue or priority, see the message
 *  before and after, and replay it: where the broker's adapter declares it can. */
export function EditReplay({ brokerId, d }: { brokerId: string; d: DeadDetail }) {
  const o = useOverview(brokerId);
  const decl = o.data?.model?.actions.replayEdited;
  const cap = o.data?.capabilities.replay;
  const router = useRouter();
  const toast = useToasts();
  const initialArgs = d.payload.args && (d.payload.args.t === 'list' || d.payload.args.t === 'tuple') ? d.payload.args.items : [];
  const initialKwargs = d.payload.kwargs?.t === 'dict' ? d.payload.kwargs.entries : [];
  const [open, setOpen] = useState(false);
  const [args, setArgs] = useState<TypedValue[]>(initialArgs);
  const [kwargs, setKwargs] = useState<Array<[string, TypedValue]>>(initialKwargs);
  const [queue, setQueue] = useState(d.payload.queue ?? d.queue);
  const [prio, setPrio] = useState(() => {
    const p = d.payload.fields.find((f) => f.name === 'priority')?.value;
    return p && p.t === 'int' ? p.v : '0';
  });
  const [preview, setPreview] = useState<EditPreview | null>(null);
  const [result, setResult] = useState<EditReplayResult | null>(null);
  const [error, setError] = useState<ActionError | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  // Arguments that are hidden (redaction) or not a list/dict can't be edited here.
  // A system without positional arguments (decl.noArgs) edits its keyword arguments only.
  const readable = d.payload.args?.t === 'list' || d.payload.args?.t === 'tuple' || (!!decl?.noArgs && d.payload.kwargs?.t === 'dict');
  if (!decl || d.payload.format === null || d.payload.foreign || !readable) return null;
  const words = kwargsWords(decl);
  const off = cap && !cap.on ? (cap.why ?? 'replay is not available') : (d.unavailable?.replay ?? d.unavailable?.replayEdited ?? null);
  const edit = (): ReplayEditInput => ({
    ...(decl.noArgs ? {} : { args }),
    kwargs,
    queue,
    priority: /^-?\d+$/.test(prio.trim()) ? Number(prio) : Number.NaN,
  });
  const changed = () => {
    setPreview(null);
    setError(null);
  };
  const run = async <T,>(call: () => Promise<{ ok: true; data: T } | { ok: false; error: ActionError }>, done: (t: T) => void) => {
    setBusy(true);
    setError(null);
    try {
      const r = await call();
      if (r.ok) done(r.data);
      else setError(r.error);
    } finally {
      setBusy(false);
    }
  };
  const fields = error?.fields ?? {};
  return (
    <Card testId="edit-replay">
      <CardHeader title="Edit and replay">
        {!open ? (
          <Button size="sm" onClick={() => setOpen(true)} disabled={!!off} title={off ?? undefined} data-testid="edit-open">
            Edit and replay…
          </Button>
        ) : null}
      </CardHeader>
      {open ? (
        <div className="grid gap-4 p-4 text-sm">
          <p className="text-zinc-600 dark:text-zinc-400" data-testid="edit-does">
            {decl.does} {decl.sameId ? `It runs as ${d.id} (same id).` : 'It runs under a new id.'}
          </p>
          <fieldset className={`${decl.noArgs ? 'hidden' : 'grid'} gap-2`}>
            <legend className="font-medium">Arguments</legend>
            {args.map((a, i) => (
              <div key={i} className="flex items-start gap-2">
                <span className="w-8 pt-1 text-xs text-zinc-500">{i}</span>
                <ValueEditor
                  value={a}
                  path={`args[${i}]`}
                  errors={fields}
                  kinds={decl.kinds}
                  onChange={(v) => (changed(), setArgs(args.map((x, j) => (j === i ? v : x))))}
                />
                <button type="button" className="link pt-1 text-xs" onClick={() => (changed(), setArgs(args.filter((_, j) => j !== i)))}>
                  remove
                </button>
              </div>
            ))}
            <button
              type="button"
              className="link justify-self-start text-xs"
              onClick={() => (changed(), setArgs([...args, { t: 'str', v: '' }]))}
            >
              add an argument
            </button>
          </fieldset>
          <fieldset className="grid gap-2">
            <legend className="font-medium">{words.label}</legend>
            {kwargs.map(([k, v], i) => (
              <div key={i} className="flex items-start gap-2">
                <input
                  className="input w-32 py-1 font-mono text-xs"
                  value={k}
                  aria-label={`Name of ${words.entry} ${i}`}
                  data-testid={`edit-kwarg-name-${i}`}
                  onChange={(e) => (changed(), setKwargs(kwargs.map((x, j) => (j === i ? [e.target.value, x[1]] : x))))}
                />
                <ValueEditor
                  value={v}
                  path={`kwargs.${k}`}
                  errors={fields}
                  kinds={decl.kinds}
                  onChange={(nv) => (changed(), setKwargs(kwargs.map((x, j) => (j === i ? [x[0], nv] : x))))}
                />
                <button
                  type="button"
                  className="link pt-1 text-xs"
                  onClick={() => (changed(), setKwargs(kwargs.filter((_, j) => j !== i)))}
                >
                  remove
                </button>
              </div>
            ))}
            <button
              type="button"
              className="link justify-self-start text-xs"
              onClick={() => (changed(), setKwargs([...kwargs, [`name${kwargs.length}`, { t: 'str', v: '' }]]))}
            >
              add a {words.entry}
            </button>
          </fieldset>
          <div className="flex flex-wrap gap-4">
            <label className="grid gap-1">
              Queue
              <input
                className="input w-56"
                value={queue}
                data-testid="edit-queue"
                onChange={(e) => (changed(), setQueue(e.target.value))}
              />
              {fields.queue ? <span className="text-xs text-red-600">{fields.queue}</span> : null}
            </label>
            <label className="grid gap-1">
              Priority
              <input
                className="input w-24"
                value={prio}
                data-testid="edit-priority"
                onChange={(e) => (changed(), setPrio(e.target.value))}
              />
              {fields.priority ? <span className="text-xs text-red-600">{fields.priority}</span> : null}
            </label>
          </div>
          <div className="flex gap-2">
            <Button
              size="sm"
              disabled={busy}
              data-testid="edit-preview"
              onClick={() => void run(() => previewReplayEditedAction(brokerId, d.id, edit()), setPreview)}
            >
              Show the message before and after
            </Button>
          </div>
          {error && !Object.keys(fields).length ? <ErrorBox code={error.code} message={error.message} /> : null}
          {error && Object.keys(fields).length ? (
            <p className="text-xs text-red-600" data-testid="edit-error">
              {error.message}
            </p>
          ) : null}
          {preview ? (
            <div className="grid gap-3">
              <MessageDiff before={preview.before} after={preview.after} />
              {result ? (
                <p
                  data-testid="edit-outcome"
                  data-outcome={result.outcome.outcome}
                  className={result.outcome.outcome === 'ok' ? 'text-emerald-700' : 'text-red-700'}
                >
                  {result.outcome.outcome === 'ok'
                    ? `Replayed as ${result.newId}: ${result.outcome.message}.`
                    : `Not replayed (${result.outcome.outcome}): ${result.outcome.message}`}
                </p>
              ) : (
                <>
                  <ReasonField value={reason} onChange={setReason} required error={fields.reason} />
                  <div>
                    <Button
                      variant="primary"
                      disabled={busy || !reason.trim()}
                      data-testid="edit-confirm"
                      onClick={() =>
                        void run(
                          () => replayEditedAction(brokerId, d.id, edit(), reason.trim()),
                          (r) => {
                            setResult(r);
                            if (r.outcome.outcome !== 'ok') return;
                            // The new task's page where the broker can show it, else the dead letters.
                            const next = afterReplay(brokerId, o.data?.capabilities, r.newId, r.outcome.message);
                            setTimeout(() => {
                              if (next.notice) toast([next.notice]);
                              router.push(next.href);
                            }, 1500);
                          },
                        )
                      }
                    >
                      Replay with these edits
                    </Button>
                  </div>
                </>
              )}
            </div>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}
