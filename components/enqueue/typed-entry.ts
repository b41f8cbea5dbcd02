// Type-aware entry of one typed value (datetime, Decimal, UUID, bytes, ...) for a JSON field:
// the operator's input is checked for its kind and written in the system's declared form
// (`EnqueueDecl.typed.template`, e.g. potatoq's `{"__potatoq__": kind, "v": value}`).
import type { TypedKind } from '@/lib/brokers/schema';
import { localToIso } from './form-model';

export interface KindSpec {
  label: string;
  /** The `<input type>` to enter it with. */
  input: 'datetime-local' | 'date' | 'time' | 'text' | 'number';
  placeholder?: string;
  hint: string;
}

export const KINDS: Record<TypedKind, KindSpec> = {
  datetime: { label: 'datetime', input: 'datetime-local', hint: 'Your local time, written as UTC.' },
  date: { label: 'date', input: 'date', hint: 'A calendar date.' },
  time: { label: 'time', input: 'time', hint: 'A time of day.' },
  timedelta: { label: 'timedelta', input: 'number', placeholder: '90', hint: 'A duration in seconds.' },
  uuid: { label: 'UUID', input: 'text', placeholder: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', hint: 'Empty: a new random UUID.' },
  decimal: { label: 'Decimal', input: 'text', placeholder: '19.99', hint: 'Exact: kept as written.' },
  bytes: { label: 'bytes', input: 'text', placeholder: 'hello', hint: 'Text, sent as its UTF-8 bytes (base64).' },
  set: { label: 'set', input: 'text', placeholder: '[1, 2, 3]', hint: 'A JSON list of numbers or strings.' },
};

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function base64Utf8(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

function randomUuid(): string {
  if (typeof globalThis.crypto?.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const hex = Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The value's JSON in the neutral encoding (ISO text, exact decimal text, base64, seconds, a list). */
export function typedValueJson(kind: TypedKind, raw: string): { ok: true; json: string } | { ok: false; error: string } {
  const t = raw.trim();
  const ok = (v: unknown) => ({ ok: true as const, json: JSON.stringify(v) });
  switch (kind) {
    case 'datetime': {
      const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t) ? localToIso(t) : null;
      return iso ? ok(iso.replace('Z', '+00:00')) : { ok: false, error: 'not a date and time: pick one (your local time)' };
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(t) && !Number.isNaN(Date.parse(t)) ? ok(t) : { ok: false, error: 'not a date (YYYY-MM-DD)' };
    case 'time':
      return /^\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/.test(t)
        ? ok(t.length === 5 ? `${t}:00` : t)
        : { ok: false, error: 'not a time (HH:MM:SS)' };
    case 'timedelta': {
      if (!DECIMAL.test(t) || !Number.isFinite(Number(t))) return { ok: false, error: 'not a number of seconds' };
      const n = Number(t);
      return { ok: true, json: Number.isInteger(n) ? `${n}.0` : String(n) };
    }
    case 'uuid':
      if (!t) return ok(randomUuid());
      return UUID.test(t) ? ok(t.toLowerCase()) : { ok: false, error: 'not a UUID (8-4-4-4-12 hexadecimal digits)' };
    case 'decimal':
      return DECIMAL.test(t) ? ok(t) : { ok: false, error: 'not a decimal number (digits, one point, an optional exponent)' };
    case 'bytes':
      return ok(base64Utf8(raw));
    case 'set': {
      let v: unknown;
      try {
        v = JSON.parse(t);
      } catch {
        return { ok: false, error: 'not a JSON list' };
      }
      if (!Array.isArray(v)) return { ok: false, error: 'not a JSON list' };
      if (v.some((x) => x !== null && typeof x === 'object'))
        return { ok: false, error: 'a set holds numbers, strings, booleans or null, not lists or objects' };
      return { ok: true, json: t };
    }
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** The typed value as the system writes it: the declared template filled in. */
export function typedSnippet(template: string, kind: TypedKind, raw: string): { ok: true; json: string } | { ok: false; error: string } {
  const v = typedValueJson(kind, raw);
  return v.ok ? { ok: true, json: template.replace('{kind}', () => kind).replace('{value}', () => v.json) } : v;
}
