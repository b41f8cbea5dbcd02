'use client';
import { useRef, type ReactNode } from 'react';
import type { EnqueueDecl } from '@/lib/brokers/schema';
import { insertValue } from './snippets';
import { TypedEntry } from './typed-entry-form';

export function FieldError({ message, name }: { message?: string; name: string }) {
  return message ? (
    <span
      className="text-xs whitespace-pre-line text-red-600 dark:text-red-400"
      data-testid={`error-${name}`}
      id={`error-${name}`}
      role="alert"
    >
      {message}
    </span>
  ) : null;
}

export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="grid content-start gap-1 text-sm">
      <label htmlFor={`f-${name}`} className="font-medium">
        {label}
      </label>
      {children}
      {hint ? <span className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</span> : null}
      <FieldError name={name} message={error} />
    </div>
  );
}

/** A JSON editor; with `typed`, a type-aware entry inserts the system's typed values at the cursor. */
export function JsonField({
  label,
  name,
  value,
  onChange,
  error,
  hint,
  container,
  rows = 4,
  typed,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint?: ReactNode;
  container: 'list' | 'object';
  rows?: number;
  typed?: EnqueueDecl['typed'];
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const insert = (text: string, key: string) => {
    const el = ref.current;
    const at = el ? el.selectionStart : value.length;
    const r = insertValue(value, at, text, container, key || 'key');
    onChange(r.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(r.cursor, r.cursor);
    });
  };
  return (
    <Field label={label} name={name} error={error} hint={hint}>
      <textarea
        id={`f-${name}`}
        ref={ref}
        name={name}
        rows={rows}
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={error ? `error-${name}` : undefined}
        data-testid={`enqueue-${name}`}
        className="input font-mono text-xs"
      />
      {typed ? <TypedEntry name={name} label={label} typed={typed} container={container} onInsert={insert} /> : null}
    </Field>
  );
}
