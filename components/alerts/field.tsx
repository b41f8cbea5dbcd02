import type { ReactNode } from 'react';

/** A labelled input with its error under it (`alert-error-<name>`). */
export function Field({ label, error, name, children }: { label: string; error?: string; name: string; children: ReactNode }) {
  return (
    <label className="grid gap-1 text-sm">
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
