'use client';
import { useState } from 'react';
import type { EnqueueDecl, TypedKind } from '@/lib/brokers/schema';
import { KINDS, typedSnippet } from './typed-entry';

/** One typed value entered with an input fit for its kind, checked, then inserted at the cursor
 *  of its JSON field (under `key` in an object). A bad value is refused here, named. */
export function TypedEntry({
  name,
  label,
  typed,
  container,
  onInsert,
}: {
  name: string;
  label: string;
  typed: NonNullable<EnqueueDecl['typed']>;
  container: 'list' | 'object';
  onInsert: (json: string, key: string) => void;
}) {
  const [kind, setKind] = useState<TypedKind>(typed.kinds[0] ?? 'datetime');
  const [raw, setRaw] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const spec = KINDS[kind];
  const id = `typed-${name}`;
  const insert = () => {
    if (container === 'object' && !key.trim()) return setError('key: give the keyword argument its name');
    const r = typedSnippet(typed.template, kind, raw);
    if (!r.ok) return setError(`${spec.label}: ${r.error}`);
    setError(null);
    setRaw('');
    onInsert(r.json, key.trim());
  };
  return (
    <fieldset className="flex flex-wrap items-end gap-2 text-xs" aria-label={`Insert a typed value into ${label}`}>
      <label className="grid gap-0.5">
        <span className="text-zinc-500 dark:text-zinc-400">Typed value</span>
        <select
          className="input py-1 text-xs"
          value={kind}
          data-testid={`${id}-kind`}
          onChange={(e) => {
            setKind(e.target.value as TypedKind);
            setRaw('');
            setError(null);
          }}
        >
          {typed.kinds.map((k) => (
            <option key={k} value={k}>
              {KINDS[k].label}
            </option>
          ))}
        </select>
      </label>
      {container === 'object' ? (
        <label className="grid gap-0.5">
          <span className="text-zinc-500 dark:text-zinc-400">Key</span>
          <input className="input w-28 py-1 text-xs" value={key} onChange={(e) => setKey(e.target.value)} data-testid={`${id}-key`} />
        </label>
      ) : null}
      <label className="grid gap-0.5">
        <span className="text-zinc-500 dark:text-zinc-400">{spec.hint}</span>
        <input
          className="input py-1 text-xs"
          type={spec.input}
          step={spec.input === 'datetime-local' || spec.input === 'time' ? 1 : spec.input === 'number' ? 'any' : undefined}
          placeholder={spec.placeholder}
          value={raw}
          onChange={(e) => setRaw(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              insert();
            }
          }}
          aria-invalid={!!error}
          aria-label={`${spec.label} value`}
          data-testid={`${id}-value`}
        />
      </label>
      <button
        type="button"
        onClick={insert}
        data-testid={`${id}-insert`}
        className="rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        Insert {spec.label}
      </button>
      {error ? (
        <span className="basis-full text-red-600 dark:text-red-400" role="alert" data-testid={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
