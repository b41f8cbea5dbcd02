'use client';
import { useRef, type ReactNode } from 'react';
import { SNIPPET_KINDS, insertValue, snippet } from './snippets';

export function FieldError({ message, name }: { message?: string; name: string }) {
  return message ? (
    <span className="text-xs text-red-600 dark:text-red-400" data-testid={`error-${name}`} id={`error-${name}`}>
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

/** A JSON editor with buttons inserting tagged values (datetime, Decimal, ...) at the cursor. */
export function JsonField({
  label,
  name,
  value,
  onChange,
  error,
  container,
  rows = 4,
  helpers = true,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  container: 'list' | 'object';
  rows?: number;
  helpers?: boolean;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const insert = (text: string) => {
    const el = ref.current;
    const at = el ? el.selectionStart : value.length;
    const r = insertValue(value, at, text, container);
    onChange(r.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(r.cursor, r.cursor);
    });
  };
  return (
    <Field label={label} name={name} error={error}>
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
      {helpers ? (
        <span className="flex flex-wrap gap-1" aria-label={`Insert a typed value into ${label}`}>
          {SNIPPET_KINDS.map((k) => (
            <button
              key={k}
              type="button"
              onClick={() => insert(snippet(k))}
              data-testid={`insert-${name}-${k}`}
              className="rounded border border-zinc-300 px-1.5 py-0.5 font-mono text-[11px] hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              + {k}
            </button>
          ))}
        </span>
      ) : null}
    </Field>
  );
}
