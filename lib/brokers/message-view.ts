// The neutral view of one message or job, whatever the system: built by each system's codec
// bridge (lib/brokers/<system>/message.ts), rendered by components/jobs. Client-safe: no server
// imports. Re-exported by dto.ts and schema.ts. One zod definition per shape, the type inferred
// from it (docs/architecture.md, "One definition per response").
import { z } from 'zod';
import { ZTypedValue, ZValueNote } from './typed-value';

/** Raw payload text shown on detail pages is cut here; its full size is reported. */
export const RAW_LIMIT = 256 * 1024;

/** A short, inert preview of a payload for lists. */
export const ZPayloadPreview = z
  .strictObject({
    /** `native`: a message of the broker's own system; `foreign`: one its workers cannot run;
     *  `large`: not decoded for the list (too big); the detail page decodes it. */
    kind: z
      .enum(['native', 'foreign', 'large'])
      .describe("native: the broker's own system's; foreign: one its workers cannot run; large: not decoded for the list"),
    /** The foreign message's kind (a code of the system's codec, e.g. `celery-v2`). */
    foreign: z.string().optional().describe("the foreign message's kind (a code of the system's codec, e.g. celery-v2)"),
    text: z.string(),
  })
  .meta({ id: 'PayloadPreview', description: 'A short, inert preview of a payload for lists.' });
export type PayloadPreview = z.infer<typeof ZPayloadPreview>;

/** Why the broker's workers cannot run a message, in the system's words. */
export const ZForeignInfo = z
  .strictObject({
    /** The codec's code for what it is (`celery-v2`, `invalid-json`, ...). */
    code: z.string(),
    /** "Not a potatoq message: Celery protocol 2 message". */
    title: z.string(),
    /** Who says so ("potatoq") and its exact text. */
    reasonBy: z.string(),
    reason: z.string(),
    /** What the operator should do about it. */
    advice: z.string(),
    /** Claiming it crashes the worker that takes it (potatoq on SQL brokers). */
    crashesWorkers: z.boolean(),
  })
  .meta({ id: 'ForeignInfo', description: "Why the broker's workers cannot run a message, in the system's words." });
export type ForeignInfo = z.infer<typeof ZForeignInfo>;

/** A header or envelope field of the message, read-only: text, or a typed value. */
export const ZHeaderRow = z.strictObject({
  name: z.string(),
  text: z.string().optional(),
  value: ZTypedValue.optional(),
  /** It repeats the arguments (hidden with them under argument redaction). */
  carriesArgs: z.boolean().optional(),
});
export type HeaderRow = z.infer<typeof ZHeaderRow>;

/**
 * One message or job as the console shows it, whatever the system: its task, id, queue and
 * arguments as typed values, its other fields and headers, and flags with reasons. Built by
 * each system's codec bridge (lib/brokers/<system>/).
 */
export const ZMessageView = z
  .strictObject({
    /** The format recognised (`potatoq`, `celery`, ...); null when none was. */
    format: z.string().nullable(),
    task: z.string().nullable(),
    id: z.string().nullable(),
    queue: z.string().nullable(),
    /** Positional and keyword arguments; null when the message carries none we could read. */
    args: ZTypedValue.nullable(),
    kwargs: ZTypedValue.nullable(),
    /** The message's other fields in wire order; `ignored`: why the system drops that field. */
    fields: z.array(
      z.strictObject({ name: z.string(), value: ZTypedValue, ignored: z.string().optional(), carriesArgs: z.boolean().optional() }),
    ),
    /** Headers or envelope of a foreign message (Celery's task, id, eta, ...); `headersTitle` names them. */
    headers: z.array(ZHeaderRow),
    headersTitle: z.string().optional(),
    /** Anomalies in the values (a tag the system does not know, ...), each once. */
    flags: z.array(ZValueNote),
    /** Set when the broker's workers cannot run this message. */
    foreign: ZForeignInfo.nullable(),
    /** A foreign body decoded as plain data, when it is not a message at all. */
    value: ZTypedValue.nullable(),
  })
  .meta({ id: 'MessageView', description: "One message or job as the console shows it, whatever the system's wire format." });
export type MessageView = z.infer<typeof ZMessageView>;

/** What converting another system's letter would send (`ok`), or why it can't; `note` says
 *  what is set again when it is sent. */
export const ZConversion = z
  .discriminatedUnion('ok', [
    z.strictObject({
      ok: z.literal(true),
      from: z.string(),
      to: z.string(),
      task: z.string(),
      id: z.string(),
      queue: z.string(),
      json: z.string(),
      note: z.string(),
    }),
    z.strictObject({ ok: z.literal(false), from: z.string(), to: z.string(), error: z.string() }),
  ])
  .meta({ id: 'Conversion' });
export type Conversion = z.infer<typeof ZConversion>;
