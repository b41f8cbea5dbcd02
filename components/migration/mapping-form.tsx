'use client';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';
import type { MoveTargetView } from '@/lib/brokers/move-pairing';
import { ApiError, brokerPath, postJson } from '@/lib/client/api';
import { checkDraft, ENCODING_CHOICES, type MappingDraft } from './mapping-fields';

function Field({ label, error, testId, children }: { label: string; error?: string; testId: string; children: ReactNode }) {
  return (
    <label className="grid gap-1 text-sm">
      <span className="font-medium">{label}</span>
      {children}
      {error ? (
        <span className="text-xs text-red-600" data-testid={`mapping-error-${testId}`}>
          {error}
        </span>
      ) : null}
    </label>
  );
}

/**
 * One task name's call mapping, typed: positional argument i -> payload key, kwargs kept by
 * name, defaults, per value JSON cannot hold an encoding or "refuse", the job's retry settings.
 * Checked here with the server's schema (errors under the fields), then again by the server.
 */
export function MappingForm({
  brokerId,
  targets,
  names,
  draft,
  onChange,
  onSaved,
}: {
  brokerId: string;
  targets: MoveTargetView[];
  names: string[];
  draft: MappingDraft;
  onChange: (d: MappingDraft) => void;
  onSaved: () => void;
}) {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<MappingDraft>) => onChange({ ...draft, ...patch });
  const err = (k: string) => fields[k];
  async function save() {
    setError(null);
    const c = checkDraft(brokerId, draft);
    if (!c.ok) return setFields(c.fields);
    setFields({});
    setBusy(true);
    try {
      await postJson(brokerPath(brokerId, '/mappings'), c.value);
      onSaved();
    } catch (e) {
      if (e instanceof ApiError && e.fields) setFields(e.fields);
      setError(e instanceof ApiError ? { code: e.code, message: e.message } : { code: 'Error', message: String(e) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="grid gap-3 p-4" data-testid="mapping-form" onSubmit={(e) => (e.preventDefault(), void save())}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Target broker" error={err('target')} testId="target">
          <select className="input" value={draft.target} onChange={(e) => set({ target: e.target.value })} data-testid="mapping-target">
            <option value="">Choose a broker…</option>
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.id})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Task name here" error={err('task')} testId="task">
          <input
            className="input"
            list="mapping-task-names"
            value={draft.task}
            onChange={(e) => set({ task: e.target.value })}
            data-testid="mapping-task"
          />
          <datalist id="mapping-task-names">
            {names.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </Field>
        <Field label="Task name there (empty: the same)" error={err('targetTask')} testId="targetTask">
          <input
            className="input"
            value={draft.targetTask}
            onChange={(e) => set({ targetTask: e.target.value })}
            data-testid="mapping-target-task"
          />
        </Field>
        <Field label="Queue there (empty: the letter's queue)" error={err('queue')} testId="queue">
          <input className="input" value={draft.queue} onChange={(e) => set({ queue: e.target.value })} data-testid="mapping-queue" />
        </Field>
      </div>
      <fieldset className="grid gap-2 text-sm">
        <legend className="font-medium">Positional arguments → payload keys (keyword arguments keep their names)</legend>
        {draft.args.map((k, i) => (
          <Field key={i} label={`args[${i}] →`} error={err(`args.${i}`)} testId={`args-${i}`}>
            <span className="flex gap-2">
              <input
                className="input grow"
                value={k}
                onChange={(e) => set({ args: draft.args.map((x, j) => (j === i ? e.target.value : x)) })}
                data-testid={`mapping-arg-${i}`}
              />
              <Button onClick={() => set({ args: draft.args.filter((_, j) => j !== i) })} data-testid={`mapping-arg-remove-${i}`}>
                Remove
              </Button>
            </span>
          </Field>
        ))}
        <div>
          <Button onClick={() => set({ args: [...draft.args, ''] })} data-testid="mapping-add-arg">
            Add positional argument
          </Button>
        </div>
      </fieldset>
      <Field label="Defaults (a JSON object: payload keys a letter lacks)" error={err('defaults')} testId="defaults">
        <textarea
          className="input font-mono text-xs"
          rows={3}
          value={draft.defaults}
          onChange={(e) => set({ defaults: e.target.value })}
          data-testid="mapping-defaults"
        />
      </Field>
      <fieldset className="grid gap-2 text-sm sm:grid-cols-2">
        <legend className="font-medium">Values JSON cannot hold: convert, or refuse the letter</legend>
        {ENCODING_CHOICES.map(({ kind, options }) => (
          <Field key={kind} label={kind} error={err(`encodings.${kind}`)} testId={`enc-${kind}`}>
            <select
              className="input"
              value={draft.encodings[kind] ?? ''}
              onChange={(e) => set({ encodings: { ...draft.encodings, [kind]: e.target.value } })}
              data-testid={`mapping-enc-${kind}`}
            >
              <option value="">refuse the letter</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  as {o.label}
                </option>
              ))}
            </select>
          </Field>
        ))}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Max retries (empty: the target's default)" error={err('retry.maxRetries')} testId="max-retries">
          <input
            className="input"
            inputMode="numeric"
            value={draft.maxRetries}
            onChange={(e) => set({ maxRetries: e.target.value })}
            data-testid="mapping-max-retries"
          />
        </Field>
        <Field label="Backoff" error={err('retry.backoff')} testId="backoff">
          <select className="input" value={draft.backoff} onChange={(e) => set({ backoff: e.target.value })} data-testid="mapping-backoff">
            <option value="">the target&apos;s default</option>
            <option value="fixed">fixed</option>
            <option value="linear">linear</option>
            <option value="exponential">exponential</option>
          </select>
        </Field>
        <Field label="Retry delay (seconds)" error={err('retry.delaySecs')} testId="delay">
          <input
            className="input"
            inputMode="numeric"
            value={draft.delaySecs}
            onChange={(e) => set({ delaySecs: e.target.value })}
            data-testid="mapping-delay"
          />
        </Field>
      </div>
      {error ? <ErrorBox code={error.code} message={error.message} /> : null}
      <div className="flex justify-end">
        <Button variant="primary" type="submit" disabled={busy} data-testid="mapping-save">
          {busy ? 'Saving…' : 'Save mapping'}
        </Button>
      </div>
    </form>
  );
}
