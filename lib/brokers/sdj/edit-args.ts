import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ReplayEditInput } from '@/lib/brokers/schema-edit';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { decodePayload } from './payload';

// An SDJ job's args are one JSON value, the bytes its handler unmarshals. The shared editor
// edits a dead letter's keyword arguments: here they are the keys of that JSON object (the Go
// struct's fields), and there are no positional arguments. Edited values become JSON text here,
// numbers as the exact text the editor holds (a big int64 id stays exact); JSON has no dates, so
// the date kinds the shared editor may send are written as their ISO 8601 text, and kinds JSON
// cannot hold at all (bytes, sets, durations) are refused naming the field.

export const NO_ARGS =
  'Simple Durable Jobs passes a job one JSON value (its args), not positional arguments: edit the keys of its JSON object';

const invalid = (field: string, why: string) => new ConsoleError('InvalidInput', `${field}: ${why}`, { [field]: why });

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function text(v: string, ok: RegExp, field: string, what: string): string {
  const s = v.trim();
  if (!ok.test(s) || (ok !== UUID && ok !== NUMBER && Number.isNaN(Date.parse(ok === TIME ? `1970-01-01T${s}Z` : s))))
    throw invalid(field, `must be ${what}`);
  return JSON.stringify(s);
}

/** One edited value as JSON text; `field` names it in errors (`kwargs.at`, `kwargs.items[2]`). */
export function typedToJson(v: TypedValue, field: string): string {
  switch (v.t) {
    case 'null':
      return 'null';
    case 'bool':
      return v.v ? 'true' : 'false';
    case 'int':
      if (!/^-?\d+$/.test(v.v.trim())) throw invalid(field, 'must be a whole number');
      return v.v.trim().replace(/^(-?)0+(?=\d)/, '$1');
    case 'float': {
      const s = v.v.trim();
      if (!NUMBER.test(s) || !Number.isFinite(Number(s))) throw invalid(field, 'must be a finite number (JSON has no NaN or Infinity)');
      return s;
    }
    case 'str':
      if (v.truncated) throw invalid(field, 'is too long to edit here (only its start was read)');
      return JSON.stringify(v.v);
    case 'list':
    case 'tuple':
      if ('truncated' in v && v.truncated) throw invalid(field, 'has more items than were read; it cannot be edited here');
      return `[${v.items.map((x, i) => typedToJson(x, `${field}[${i}]`)).join(',')}]`;
    case 'dict':
      if (v.truncated) throw invalid(field, 'has more keys than were read; it cannot be edited here');
      return objectText(v.entries, field);
    case 'datetime':
      return text(v.v, DATETIME, field, 'an ISO 8601 date-time');
    case 'date':
      return text(v.v, DATE, field, 'a date (YYYY-MM-DD)');
    case 'time':
      return text(v.v, TIME, field, 'a time (hh:mm:ss)');
    case 'uuid':
      return text(v.v, UUID, field, 'a UUID');
    case 'decimal':
      // JSON's own number, digits kept: Go's encoding/json reads it into a float or json.Number.
      if (!NUMBER.test(v.v.trim())) throw invalid(field, 'must be a decimal number');
      return v.v.trim();
    case 'bytes':
    case 'set':
    case 'timedelta':
      throw invalid(field, `a job's args are JSON, which has no ${v.t}`);
    case 'deep':
      throw invalid(field, 'is nested deeper than the console shows; it cannot be edited here');
    default: {
      const never: never = v;
      throw invalid(field, `unknown type ${String((never as { t: string }).t)}`);
    }
  }
}

function objectText(entries: Array<[string, TypedValue]>, field: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [k, x] of entries) {
    if (seen.has(k)) throw invalid(`${field}.${k}`, 'is given twice');
    seen.add(k);
    out.push(`${JSON.stringify(k)}:${typedToJson(x, `${field}.${k}`)}`);
  }
  return `{${out.join(',')}}`;
}

/** The stored args as JSON text for the preview: JSON as stored, anything else as a string saying what it is. */
export function argsShown(args: unknown): string {
  const p = decodePayload(args);
  if (p === null) return 'null';
  if (p.kind === 'json') return Buffer.isBuffer(args) ? args.toString('utf8').trim() : JSON.stringify(p.value);
  if (p.kind === 'encrypted') return JSON.stringify(`(${p.size} bytes encrypted by the application's payload codec)`);
  return JSON.stringify(`(${p.size} bytes, not JSON) base64:${p.base64}`);
}

/**
 * The args an edit writes, as JSON text, or null when the edit leaves them as stored (no kwargs
 * given). Refused, naming the field: positional args, and kwargs where the stored args are not a
 * JSON object (or null): an array, a scalar, bytes, or a payload codec's ciphertext.
 */
export function editedArgs(stored: unknown, edit: ReplayEditInput): string | null {
  if (edit.args?.length) throw invalid('args', NO_ARGS);
  if (edit.kwargs === undefined) return null;
  const names = edit.kwargs.map(([k]) => k);
  if (names.some((k) => k === '')) throw invalid('kwargs', 'a key needs a name');
  const p = decodePayload(stored);
  if (p?.kind === 'encrypted')
    throw invalid(
      'kwargs',
      "the args are encrypted by the application's payload codec, which the console cannot read or write: replay it without editing them",
    );
  if (p?.kind === 'bytes') throw invalid('kwargs', 'the args are not JSON: replay it without editing them');
  if (p && p.value !== null && (typeof p.value !== 'object' || Array.isArray(p.value)))
    throw invalid(
      'kwargs',
      `the args are a JSON ${Array.isArray(p.value) ? 'array' : typeof p.value}, not an object: they cannot be edited key by key`,
    );
  return objectText(edit.kwargs, 'kwargs');
}

/** The row as a replay leaves it, in the before/after text: type, queue, priority and args. */
export function replayView(r: { type: string; queue: string; priority: number; args: string }): string {
  return `{"type":${JSON.stringify(r.type)},"queue":${JSON.stringify(r.queue)},"priority":${r.priority},"args":${r.args}}`;
}
