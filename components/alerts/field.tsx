import type { ReactNode } from 'react';

/** A labelled input with its error under it (`alert-error-<name>`). */
export function Field({ label, error, name, children }: { label: string; error?: string; name: string; children: ReactNode }) {
  return (
    <label className="grid min-w-0 gap-1 text-sm">
      <span className="font-medium">{label}</span>
      {children}
      {error ? (
        <span className="text-xs text-red-600" data-testid={`alert-error-${name}`}>
          {error}
        </span>
      ) : null}
    </label>
  );
}

/** A text input in a Field (`alert-webhook-<name>`); `secret`: masked and never autofilled. */
export function TextField(p: {
  label: string;
  error?: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  secret?: boolean;
}) {
  return (
    <Field label={p.label} error={p.error} name={p.name}>
      <input
        className="input"
        type={p.secret ? 'password' : 'text'}
        autoComplete="off"
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        data-testid={`alert-webhook-${p.name}`}
      />
    </Field>
  );
}
