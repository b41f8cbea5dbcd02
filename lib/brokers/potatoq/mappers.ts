import 'server-only';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { decodePayload, toTyped } from '@/lib/potatoq';
import { parseJson } from '@/lib/pyvalues';
import { previewOf } from '@/lib/potatoq/view';
import { DecodeMemo } from './decode-memo';
import type { PayloadPreview, ResultRecordDto } from '@/lib/brokers/schema';
import { RAW_LIMIT } from '@/lib/brokers/message-view';

export { RAW_LIMIT };

/** Payloads bigger than this are not decoded for list previews. */
export const PREVIEW_DECODE_LIMIT = 64 * 1024;
export const PREVIEW_CHARS = 160;

function dateFromEpoch(v: unknown): Date | null {
  const n = typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) return null;
  const d = new Date(n * 1000);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Epoch seconds (number, bigint or numeric text) -> milliseconds (whole, as a Date keeps
 *  them), null when not a time. */
export function msFromEpoch(v: unknown): number | null {
  return dateFromEpoch(v)?.getTime() ?? null;
}

/** REAL epoch seconds (potatoq's `time.time()`) as ISO; null when absent or not a time. */
export function isoFromEpoch(v: unknown): string | null {
  return dateFromEpoch(v)?.toISOString() ?? null;
}

/** A column value as a JSON-safe string (ids, priorities, pids are strings in DTOs). */
export function str(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}

/** A payload column: TEXT as potatoq writes it, or a BLOB from a foreign writer (potatoq's
 *  sqlite3 then reads bytes and decodes them as UTF-8). */
export type Stored = string | Buffer;

/** The text shown for a stored payload (invalid UTF-8 shown with replacement characters). */
export const storedText = (p: Stored): string => (typeof p === 'string' ? p : p.toString('utf8'));

// A preview is a pure function of the payload (text or bytes), and lists are polled: the same
// letters and tasks come back every few seconds. Decoding one costs ~50 µs; a lookup costs a hash
// of the payload.
const memo = new DecodeMemo<PayloadPreview | null>(2000, 2048);

export function preview(payload: Stored | null, size: number): PayloadPreview {
  // Not decoded here, so neither potatoq's nor foreign: the detail page tells.
  if (payload === null) return { kind: 'large', text: `(${formatSize(size)} payload, too large to preview; open it to see it)` };
  const made = memo.get(payload, () => {
    try {
      return previewOf(decodePayload(payload), PREVIEW_CHARS);
    } catch {
      return null;
    }
  });
  return made === null ? { kind: 'foreign', text: `(${size} bytes that could not be previewed)` } : { ...made };
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

export function rawParts(stored: Stored): { raw: string; rawSize: number; rawTruncated: boolean } {
  const rawSize = typeof stored === 'string' ? Buffer.byteLength(stored, 'utf8') : stored.length;
  const payload = storedText(stored);
  const rawTruncated = payload.length > RAW_LIMIT;
  return { raw: rawTruncated ? payload.slice(0, RAW_LIMIT) : payload, rawSize, rawTruncated };
}

function entry(p: TypedValue | null, key: string): TypedValue | null {
  if (!p || p.t !== 'dict') return null;
  const hit = p.entries.find(([k]) => k === key);
  return hit ? hit[1] : null;
}

function scalarText(p: TypedValue | null): string | null {
  if (!p) return null;
  switch (p.t) {
    case 'str':
    case 'int':
    case 'float':
      return p.v;
    case 'bool':
      return p.v ? 'True' : 'False';
    case 'null':
      return null;
    default:
      return null;
  }
}

function numeric(p: TypedValue | null): number | null {
  const s = p && (p.t === 'int' || p.t === 'float') ? p.v : null;
  return s === null ? null : Number(s);
}

/** potatoq's dashboard joins `exc_message` (the exception's args) with ", ". */
function excMessageText(p: TypedValue | null): string | null {
  if (!p) return null;
  if (p.t === 'list') return p.items.map((i) => scalarText(i) ?? JSON.stringify(i)).join(', ');
  return scalarText(p);
}

/** A stored result record (`potatoq_results` row) decoded for the detail pages. */
export function mapResult(id: string, state: string, payload: string, expiresAt: unknown): ResultRecordDto {
  let record: TypedValue | null = null;
  try {
    record = toTyped(parseJson(payload));
  } catch {
    record = null;
  }
  const result = entry(record, 'result');
  const isFailure = result?.t === 'dict' && entry(result, 'exc_type') !== null;
  const { raw } = rawParts(payload);
  return {
    id,
    status: scalarText(entry(record, 'status')) ?? state,
    record,
    excType: isFailure ? scalarText(entry(result, 'exc_type')) : null,
    excMessage: isFailure ? excMessageText(entry(result, 'exc_message')) : null,
    traceback: scalarText(entry(record, 'traceback')),
    dateDone: isoFromEpoch(numeric(entry(record, 'date_done'))),
    expiresAt: isoFromEpoch(expiresAt),
    worker: scalarText(entry(record, 'worker')),
    name: scalarText(entry(record, 'name')),
    raw,
  };
}

/** The `result` list of a `potatoq-registered-*` record: the worker's task names. */
export function registeredNames(payload: string): string[] {
  try {
    const result = entry(toTyped(parseJson(payload)), 'result');
    if (!result || (result.t !== 'list' && result.t !== 'set')) return [];
    return result.items.flatMap((i) => (i.t === 'str' ? [i.v] : []));
  } catch {
    return [];
  }
}
