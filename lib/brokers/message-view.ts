// The neutral view of one message or job, whatever the system: built by each system's codec
// bridge (lib/brokers/<system>/message.ts), rendered by components/jobs. Client-safe: no server
// imports. Re-exported by dto.ts and schema.ts.
import type { TypedValue, ValueNote } from './typed-value';

/** Raw payload text shown on detail pages is cut here; its full size is reported. */
export const RAW_LIMIT = 256 * 1024;

/** A short, inert preview of a payload for lists. */
export interface PayloadPreview {
  /** `native`: a message of the broker's own system; `foreign`: one its workers cannot run;
   *  `large`: not decoded for the list (too big); the detail page decodes it. */
  kind: 'native' | 'foreign' | 'large';
  /** The foreign message's kind (a code of the system's codec, e.g. `celery-v2`). */
  foreign?: string;
  text: string;
}

/** Why the broker's workers cannot run a message, in the system's words. */
export interface ForeignInfo {
  /** The codec's code for what it is (`celery-v2`, `invalid-json`, ...). */
  code: string;
  /** "Not a potatoq message: Celery protocol 2 message". */
  title: string;
  /** Who says so ("potatoq") and its exact text. */
  reasonBy: string;
  reason: string;
  /** What the operator should do about it. */
  advice: string;
  /** Claiming it crashes the worker that takes it (potatoq on SQL brokers). */
  crashesWorkers: boolean;
}

/** A header or envelope field of the message, read-only: text, or a typed value. */
export interface HeaderRow {
  name: string;
  text?: string;
  value?: TypedValue;
  /** It repeats the arguments (hidden with them under argument redaction). */
  carriesArgs?: boolean;
}

/**
 * One message or job as the console shows it, whatever the system: its task, id, queue and
 * arguments as typed values, its other fields and headers, and flags with reasons. Built by
 * each system's codec bridge (lib/brokers/<system>/).
 */
export interface MessageView {
  /** The format recognised (`potatoq`, `celery`, ...); null when none was. */
  format: string | null;
  task: string | null;
  id: string | null;
  queue: string | null;
  /** Positional and keyword arguments; null when the message carries none we could read. */
  args: TypedValue | null;
  kwargs: TypedValue | null;
  /** The message's other fields in wire order; `ignored`: why the system drops that field. */
  fields: Array<{ name: string; value: TypedValue; ignored?: string; carriesArgs?: boolean }>;
  /** Headers or envelope of a foreign message (Celery's task, id, eta, ...); `headersTitle` names them. */
  headers: HeaderRow[];
  headersTitle?: string;
  /** Anomalies in the values (a tag the system does not know, ...), each once. */
  flags: ValueNote[];
  /** Set when the broker's workers cannot run this message. */
  foreign: ForeignInfo | null;
  /** A foreign body decoded as plain data, when it is not a message at all. */
  value: TypedValue | null;
}

export type Conversion =
  | { ok: true; from: string; to: string; task: string; id: string; queue: string; json: string; note: string }
  | { ok: false; from: string; to: string; error: string };
