// Client-safe types of potatoq's wire format, as the console shows them. No server imports.
import type { CeleryInfo } from '@/lib/celery-protocol/message';
import type { TypedValue } from '@/lib/brokers/typed-value';

export type { CeleryInfo };

/** The eight tags potatoq's serializer writes as `{"__potatoq__": tag, "v": value}`. */
export const TAGS = ['datetime', 'date', 'time', 'timedelta', 'uuid', 'decimal', 'bytes', 'set'] as const;
export type Tag = (typeof TAGS)[number];

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
  args: TypedValue;
  kwargs: TypedValue;
  /** Every field in wire order, decoded, including unknown ones (potatoq drops those). */
  fields: Array<[string, TypedValue]>;
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
  value: TypedValue | null;
}

export type DecodedPayload = PotatoqMessage | ForeignMessage;
