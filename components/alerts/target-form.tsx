'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';
import { ALERT_KINDS, BROKER_KINDS, KIND_WORDS, ZAlertTarget, type AlertKind, type AlertTarget } from '@/lib/alerts/schema';
import { ApiError, describeError, postJson } from '@/lib/client/api';
import { fieldsOf } from '@/lib/brokers/parse-input';
import { formFields } from './alerts-types';
import { Field } from './field';

interface Draft {
  id: string;
  broker: string;
  queue: string;
  kind: AlertKind;
  threshold: string;
  for: string;
  severity: 'info' | 'warning' | 'critical';
}

const draftOf = (t: AlertTarget | null, broker: string): Draft => ({
  id: t?.id ?? '',
  broker: t?.broker ?? broker,
  queue: t?.queue ?? '',
  kind: t?.kind ?? 'oldestWaiting',
  threshold: t?.threshold !== undefined ? String(t.threshold) : '',
  for: t?.for ?? '5m',
  severity: t?.severity ?? 'warning',
});

/** The target as the server takes it: empty optional fields left out, the threshold a number. */
function valueOf(d: Draft): Record<string, unknown> {
  return {
    id: d.id.trim(),
    broker: d.broker,
    ...(d.queue.trim() ? { queue: d.queue.trim() } : {}),
    kind: d.kind,
    ...(d.threshold.trim() ? { threshold: Number(d.threshold) } : {}),
    for: d.for.trim(),
    severity: d.severity,
  };
}

/**
 * Adds or edits one console target. Checked here with the server's schema (errors under the
 * fields), then again by the server, whose field errors land under the same fields.
 */
export function TargetForm({ editing, brokers, onDone }: { editing: AlertTarget | null; brokers: string[]; onDone: () => void }) {
  const [d, setD] = useState<Draft>(draftOf(editing, brokers[0] ?? ''));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (p: Partial<Draft>) => setD({ ...d, ...p });
  const words = KIND_WORDS[d.kind];
  async function save() {
    setError(null);
    const value = valueOf(d);
    const c = ZAlertTarget.safeParse(value);
    if (!c.success) return setFields(fieldsOf(c.error));
    setFields({});
    setBusy(true);
    try {
      await postJson('/api/alerts/targets', { target: value, isNew: !editing });
      onDone();
    } catch (e) {
      if (e instanceof ApiError && e.fields) setFields(formFields(e.fields));
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="grid gap-3 p-4" data-testid="alert-target-form" onSubmit={(e) => (e.preventDefault(), void save())}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Id (the target label)" error={fields.id} name="id">
          <input className="input" value={d.id} disabled={!!editing} onChange={(e) => set({ id: e.target.value })} data-testid="alert-id" />
        </Field>
        <Field label="Broker" error={fields.broker} name="broker">
          <select className="input" value={d.broker} onChange={(e) => set({ broker: e.target.value })} data-testid="alert-broker">
            {brokers.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={
            BROKER_KINDS.includes(d.kind) ? 'Queue (none: this kind watches the whole broker)' : 'Queue (empty: every queue of the broker)'
          }
          error={fields.queue}
          name="queue"
        >
          <input className="input" value={d.queue} onChange={(e) => set({ queue: e.target.value })} data-testid="alert-queue" />
        </Field>
        <Field label="Alert when" error={fields.kind} name="kind">
          <select
            className="input min-w-0"
            value={d.kind}
            onChange={(e) => set({ kind: e.target.value as AlertKind })}
            data-testid="alert-kind"
          >
            {ALERT_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}: {KIND_WORDS[k].value}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={words.threshold ? `Threshold (${words.threshold})` : 'Threshold (none: breaches at 1)'}
          error={fields.threshold}
          name="threshold"
        >
          <input
            className="input"
            inputMode="decimal"
            value={d.threshold}
            onChange={(e) => set({ threshold: e.target.value })}
            data-testid="alert-threshold"
          />
        </Field>
        <Field label="For (how long before it fires: 30s, 5m, 1h)" error={fields.for} name="for">
          <input className="input" value={d.for} onChange={(e) => set({ for: e.target.value })} data-testid="alert-for" />
        </Field>
        <Field label="Severity" error={fields.severity} name="severity">
          <select
            className="input"
            value={d.severity}
            onChange={(e) => set({ severity: e.target.value as Draft['severity'] })}
            data-testid="alert-severity"
          >
            <option value="info">info</option>
            <option value="warning">warning</option>
            <option value="critical">critical</option>
          </select>
        </Field>
      </div>
      {error ? <ErrorBox {...error} /> : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={busy} data-testid="alert-save">
          {busy ? 'Saving…' : editing ? 'Save target' : 'Add target'}
        </Button>
        <Button onClick={onDone} data-testid="alert-cancel">
          Cancel
        </Button>
      </div>
    </form>
  );
}
