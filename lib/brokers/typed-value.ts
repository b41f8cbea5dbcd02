// The console's neutral typed value: what an argument, a header or a stored result holds,
// whatever the system's wire format (potatoq's `__potatoq__` tags, kombu's `__type__` JSON
// markers, plain JSON). JSON-safe for the browser; numbers are the exact text the producer
// wrote (big integers, NaN, Infinity), never JS numbers. Client-safe: no server imports.
// Each system's codec maps into it inside its own folder (lib/brokers/<system>/).

/** Why a value is shown as plain data although it looks typed (e.g. a tag the system does not
 *  know): `label` for the badge, `why` for its tooltip. */
export interface ValueNote {
  code: string;
  label: string;
  why: string;
}

export type TypedValue =
  | { t: 'null' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: string }
  | { t: 'float'; v: string }
  | { t: 'str'; v: string; truncated?: number }
  | { t: 'list'; items: TypedValue[]; truncated?: number }
  | { t: 'tuple'; items: TypedValue[] }
  | { t: 'dict'; entries: Array<[string, TypedValue]>; note?: ValueNote; truncated?: number }
  | { t: 'datetime'; v: string; aware: boolean; epochMs: number | null }
  | { t: 'date'; v: string }
  | { t: 'time'; v: string }
  | { t: 'timedelta'; seconds: string }
  | { t: 'uuid'; v: string }
  | { t: 'decimal'; v: string }
  | { t: 'bytes'; base64: string; size: number }
  | { t: 'set'; items: TypedValue[] }
  /** Nesting deeper than the console renders; the raw text still has it. */
  | { t: 'deep'; depth: number };
