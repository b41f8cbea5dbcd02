'use client';
import type { TypedKind, TypedValue } from '@/lib/brokers/schema';
import { editTypesFor, typeLabel, typeOf, type EditType } from './edit-types';

// A type-aware editor of one argument: the type is chosen from a list (datetime, Decimal, UUID,
// bytes, set, ...) and the value typed as text in that type's own form, never as tagged JSON.
// Containers edit their items with the same editor.

const HINT: Partial<Record<EditType, string>> = {
  datetime: '2026-12-01T09:00:00+00:00',
  date: '2026-12-01',
  time: '09:30:00',
  timedelta: 'seconds, e.g. 90.5',
  uuid: '6f9619ff-8b86-d011-b42d-00c04fc964ff',
  decimal: '12.50',
  bytes: 'base64, e.g. aGk=',
};

/** The text a scalar shows in its box. */
function textOf(v: TypedValue): string {
  switch (v.t) {
    case 'int':
    case 'float':
    case 'str':
    case 'datetime':
    case 'date':
    case 'time':
    case 'uuid':
    case 'decimal':
      return v.v;
    case 'timedelta':
      return v.seconds;
    case 'bytes':
      return v.base64;
    default:
      return '';
  }
}

/** `v` as type `t`, keeping its text (or items) where it makes sense. */
export function convert(v: TypedValue, t: EditType): TypedValue {
  const text = textOf(v);
  const items = v.t === 'list' || v.t === 'tuple' || v.t === 'set' ? v.items : [];
  switch (t) {
    case 'null':
      return { t: 'null' };
    case 'bool':
      return { t: 'bool', v: v.t === 'bool' ? v.v : text === 'true' };
    case 'int':
    case 'float':
    case 'str':
    case 'date':
    case 'time':
    case 'uuid':
    case 'decimal':
      return { t, v: text };
    case 'datetime':
      return { t: 'datetime', v: text, aware: /([+-]\d\d:?\d\d|Z)$/.test(text), epochMs: null };
    case 'timedelta':
      return { t: 'timedelta', seconds: text };
    case 'bytes':
      return { t: 'bytes', base64: text, size: 0 };
    case 'set':
      return { t: 'set', items };
    case 'list':
      return { t: 'list', items };
    case 'dict':
      return { t: 'dict', entries: v.t === 'dict' ? v.entries : [] };
    default: {
      const never: never = t;
      return never;
    }
  }
}

function setText(v: TypedValue, text: string): TypedValue {
  if (v.t === 'timedelta') return { ...v, seconds: text };
  if (v.t === 'bytes') return { ...v, base64: text };
  if (v.t === 'datetime') return { ...v, v: text, aware: /([+-]\d\d:?\d\d|Z)$/.test(text) };
  if ('v' in v && typeof v.v === 'string') return { ...v, v: text } as TypedValue;
  return v;
}

export function ValueEditor({
  value,
  onChange,
  path,
  errors,
  kinds,
}: {
  value: TypedValue;
  onChange: (v: TypedValue) => void;
  path: string;
  errors: Record<string, string>;
  /** The typed kinds the system takes (the adapter's `replayEdited.kinds`); absent: all. */
  kinds?: readonly TypedKind[];
}) {
  const t = typeOf(value);
  const err = errors[path];
  const items = value.t === 'list' || value.t === 'tuple' || value.t === 'set' ? value.items : null;
  const withItems = (next: TypedValue[]) => onChange({ ...(value as { t: 'list' }), items: next } as TypedValue);
  return (
    <div className="grid gap-1" data-testid="edit-value" data-path={path}>
      <div className="flex flex-wrap items-center gap-2">
        <select
          className="input w-28 py-1 text-xs"
          value={t}
          aria-label={`Type of ${path}`}
          data-testid={`edit-type-${path}`}
          onChange={(e) => onChange(convert(value, e.target.value as EditType))}
        >
          {editTypesFor(kinds, t).map((x) => (
            <option key={x} value={x}>
              {typeLabel(x, kinds)}
            </option>
          ))}
        </select>
        {value.t === 'bool' ? (
          <input
            type="checkbox"
            checked={value.v}
            onChange={(e) => onChange({ t: 'bool', v: e.target.checked })}
            aria-label={path}
            data-testid={`edit-${path}`}
          />
        ) : items === null && value.t !== 'dict' && value.t !== 'null' ? (
          <input
            className="input min-w-64 flex-1 py-1 font-mono text-xs"
            value={textOf(value)}
            placeholder={HINT[t]}
            aria-label={path}
            aria-invalid={err ? true : undefined}
            data-testid={`edit-${path}`}
            onChange={(e) => onChange(setText(value, e.target.value))}
          />
        ) : null}
      </div>
      {err ? (
        <span className="text-xs text-red-600" data-testid={`edit-error-${path}`}>
          {err}
        </span>
      ) : null}
      {items !== null ? (
        <div className="ml-4 grid gap-1 border-l border-zinc-200 pl-3 dark:border-zinc-800">
          {items.map((x, i) => (
            <div key={i} className="flex items-start gap-2">
              <ValueEditor
                value={x}
                path={`${path}${value.t === 'set' ? `{${i}}` : `[${i}]`}`}
                errors={errors}
                kinds={kinds}
                onChange={(n) => withItems(items.map((y, j) => (j === i ? n : y)))}
              />
              <button type="button" className="link text-xs" onClick={() => withItems(items.filter((_, j) => j !== i))}>
                remove
              </button>
            </div>
          ))}
          <button type="button" className="link justify-self-start text-xs" onClick={() => withItems([...items, { t: 'str', v: '' }])}>
            add an item
          </button>
        </div>
      ) : null}
      {value.t === 'dict' ? (
        <div className="ml-4 grid gap-1 border-l border-zinc-200 pl-3 dark:border-zinc-800">
          {value.entries.map(([k, x], i) => (
            <div key={i} className="flex items-start gap-2">
              <input
                className="input w-32 py-1 font-mono text-xs"
                value={k}
                aria-label={`Key ${i} of ${path}`}
                onChange={(e) => onChange({ ...value, entries: value.entries.map((en, j) => (j === i ? [e.target.value, en[1]] : en)) })}
              />
              <ValueEditor
                value={x}
                path={`${path}.${k}`}
                errors={errors}
                kinds={kinds}
                onChange={(n) => onChange({ ...value, entries: value.entries.map((en, j) => (j === i ? [en[0], n] : en)) })}
              />
            </div>
          ))}
          <button
            type="button"
            className="link justify-self-start text-xs"
            onClick={() => onChange({ ...value, entries: [...value.entries, [`key${value.entries.length}`, { t: 'str', v: '' }]] })}
          >
            add a key
          </button>
        </div>
      ) : null}
    </div>
  );
}
