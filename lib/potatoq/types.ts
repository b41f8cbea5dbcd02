// Client-safe types of potatoq's wire format, as the console shows them. No server imports.

/** The eight tags potatoq's serializer writes as `{"__potatoq__": tag, "v": value}`. */
export const TAGS = ['datetime', 'date', 'time', 'timedelta', 'uuid', 'decimal', 'bytes', 'set'] as const;
export type Tag = (typeof TAGS)[number];

/**
 * A decoded JSON value, JSON-safe for the browser. Numbers are kept as the exact text the
 * producer wrote (big integers, NaN, Infinity), never as JS numbers.
 *
 * `dict.flag` marks objects that look like tagged values but are plain data for potatoq:
 * - `unknown-tag`: `__potatoq__` with a tag this potatoq does not know (a newer producer?)
 * - `malformed-tag`: a known tag whose value potatoq's decoder rejects (kept as the dict)
 * - `legacy-tag`: `{"__type__", "__value__"}` written by an older potatoq (before the
 *   `__potatoq__` tags); today's workers receive it as a plain dict.
 */
export type PValue =
  | { t: 'null' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: string }
  | { t: 'float'; v: string }
  | { t: 'str'; v: string; truncated?: number }
  | { t: 'list'; items: PValue[]; truncated?: number }
  | { t: 'dict'; entries: Array<[string, PValue]>; flag?: 'unknown-tag' | 'malformed-tag' | 'legacy-tag'; truncated?: number }
  | { t: 'datetime'; v: string; aware: boolean; epochMs: number | null }
  | { t: 'date'; v: string }
  | { t: 'time'; v: string }
  | { t: 'timedelta'; seconds: string }
  | { t: 'uuid'; v: string }
  | { t: 'decimal'; v: string }
  | { t: 'bytes'; base64: string; size: number }
  | { t: 'set'; items: PValue[] }
  /** Nesting deeper than the console renders; the raw JSON still has it. */
  | { t: 'deep'; depth: number };

/** Why a payload is not a message potatoq can run. Wording of `reason` is potatoq's own. */
export type ForeignKind =
  | 'celery-v2'
  | 'kombu-envelope'
  | 'no-id'
  | 'not-object'
  | 'newer-protocol'
  | 'invalid-json'
  | 'invalid-utf8'
  /** A tag potatoq's decoder itself chokes on (e.g. `{"__potatoq__":"uuid","v":1}` raises AttributeError). */
  | 'tag-error';

export interface CeleryInfo {
  task: string | null;
  id: string | null;
  eta: string | null;
  expires: string | null;
  retries: string | null;
  rootId: string | null;
  parentId: string | null;
  groupId: string | null;
  argsrepr: string | null;
  kwargsrepr: string | null;
  args: PValue | null;
  kwargs: PValue | null;
  callbacks: PValue | null;
  errbacks: PValue | null;
  chain: PValue | null;
  chord: PValue | null;
}

export interface PotatoqMessage {
  kind: 'potatoq';
  task: string;
  id: string;
  /** Protocol version as written (`v`), 1 when absent. */
  v: string;
  queue: string | null;
  priority: string | null;
  /** Unix seconds, as numbers (display only; exactness is in `fields`). */
  eta: number | null;
  expires: number | null;
  enqueuedAt: number | null;
  retries: string | null;
  args: PValue;
  kwargs: PValue;
  /** Every field in wire order, decoded, including unknown ones (potatoq drops those). */
  fields: Array<[string, PValue]>;
  /** Fields potatoq ignores (unknown to 26.1a8's Message). */
  ignoredFields: string[];
  /** Tag anomalies found anywhere in the payload. */
  flags: Array<'unknown-tag' | 'malformed-tag' | 'legacy-tag'>;
}

export interface ForeignMessage {
  kind: 'foreign';
  foreign: ForeignKind;
  /** potatoq's exact error text for this payload (what a RabbitMQ worker would record). */
  reason: string;
  /** What the operator should do about it. */
  advice: string;
  /** True on SQL brokers and Redis, where claiming it crashes the worker slot. */
  crashesWorkers: boolean;
  task: string | null;
  id: string | null;
  celery: CeleryInfo | null;
  value: PValue | null;
}

export type DecodedPayload = PotatoqMessage | ForeignMessage;
