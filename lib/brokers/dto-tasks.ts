// Output DTOs of the task, dead-letter and result reads. One zod definition per shape, the type
// inferred from it (docs/architecture.md, "One definition per response"). Client-safe: no
// server imports. Re-exported by dto.ts.
import { z } from 'zod';
import { ZConversion, ZMessageView, ZPayloadPreview } from './message-view';
import { ZTypedValue } from './typed-value';

const iso = z.string().describe('ISO 8601 time');
const isoOrNull = iso.nullable();

/** A page of a list, for any item schema; `Page<T>` is its type. */
const ZPageOf = z.strictObject({
  /** Opaque keyset cursor for the next page, null at the end. */
  nextCursor: z.string().nullable().describe('opaque keyset cursor for the next page, null at the end'),
  /** Set when a text search only looked at the newest N rows (say so next to the results). */
  searchedNewest: z.number().int().optional().describe('set when a text search only looked at the newest N rows'),
  /** Set when the list covers only part of what it lists for another reason, in the operator's
   *  words: what was read, why, and what reaches the rest (shown next to the results). */
  window: z.string().optional().describe('set when the list covers only part of what it lists, in words: what was read and why'),
});
export const ZPage = <T extends z.ZodType>(item: T) => ZPageOf.extend({ items: z.array(item) });
export type Page<T> = z.infer<typeof ZPageOf> & { items: T[] };

export const ZTaskSummary = z
  .strictObject({
    id: z.string(),
    queue: z.string(),
    task: z.string(),
    state: z.string().describe("one of the broker's declared state keys (`model.states[].key`)"),
    priority: z.string(),
    runAt: isoOrNull,
    createdAt: isoOrNull,
    claimedAt: isoOrNull,
    /** Times of the system's own beyond these three (`pausedAt`, `leaseUntil`, ...), keyed as its
     *  states' `time.field` names them; absent when it has none. */
    times: z
      .record(z.string(), isoOrNull)
      .optional()
      .describe("the system's own times beyond createdAt/runAt/claimedAt, keyed as a state's `time.field` names them"),
    worker: z.string().nullable(),
    pid: z.string().nullable(),
    deliveries: z.string(),
    preview: ZPayloadPreview,
    /** Keyset position, opaque. */
    seq: z.string(),
  })
  .meta({ id: 'TaskSummary' });
export type TaskSummary = z.infer<typeof ZTaskSummary>;

const COMMON_TIMES = ['createdAt', 'runAt', 'claimedAt'] as const;

/** A task's time by the name a state's `time.field` gives: one of the common three, else one of
 *  the system's own `times`; null when it has none. */
export function timeOf(t: Pick<TaskSummary, (typeof COMMON_TIMES)[number] | 'times'>, field: string): string | null {
  if ((COMMON_TIMES as readonly string[]).includes(field)) return t[field as (typeof COMMON_TIMES)[number]];
  return t.times?.[field] ?? null;
}

export const ZResultRecord = z
  .strictObject({
    id: z.string(),
    status: z.string(),
    /** Decoded result record (13 keys in potatoq) */
    record: ZTypedValue.nullable(),
    excType: z.string().nullable(),
    excMessage: z.string().nullable(),
    traceback: z.string().nullable(),
    dateDone: isoOrNull,
    expiresAt: isoOrNull,
    worker: z.string().nullable(),
    name: z.string().nullable(),
    raw: z.string(),
  })
  .meta({ id: 'ResultRecord' });
export type ResultRecordDto = z.infer<typeof ZResultRecord>;

/** What a detail adds to its summary: the whole message and the stored result. Tasks it is
 *  linked to (parent, children, group) are its family (lib/brokers/family/), read apart. */
const detail = {
  payload: ZMessageView,
  raw: z.string(),
  rawSize: z.number().int(),
  rawTruncated: z.boolean(),
  result: ZResultRecord.nullable(),
};

export const ZTaskDetail = ZTaskSummary.extend(detail).meta({ id: 'TaskDetail' });
export type TaskDetail = z.infer<typeof ZTaskDetail>;

export const ZDeadSummary = z
  .strictObject({
    id: z.string(),
    queue: z.string(),
    task: z.string(),
    /** Last line of the stripped reason, as `potatoq dead list` shows it. */
    summary: z.string(),
    diedAt: isoOrNull,
    preview: ZPayloadPreview,
    /** The system's own code for why it died, where it records one beside the error text
     *  (QueueFlow: `max_attempts_exceeded`, `non_retryable`, `handler_not_found`). */
    cause: z.string().nullable().optional().describe("The system's own code for why it died (QueueFlow: non_retryable, ...)."),
    /** Set where a replayed letter stays (QueueFlow keeps it, marked): when, and the task the
     *  replay made (null when the system does not say). Absent where a replay removes the letter. */
    replayed: z
      .strictObject({ at: isoOrNull, taskId: z.string().nullable() })
      .nullable()
      .optional()
      .describe('Where a replayed letter stays (QueueFlow): when, and the task the replay made.'),
    /** Actions the system will refuse for this item although they are on for the broker, each
     *  with why (QueueFlow replays a letter once): the UI disables them with that reason, and the
     *  adapter refuses them in the same words. Absent when none. `replayEdited` only (Celery: a
     *  letter whose message is in its dead-letter queue replays as it is, never edited). */
    unavailable: z
      .strictObject({ replay: z.string().optional(), replayEdited: z.string().optional() })
      .optional()
      .describe('actions the system refuses for this letter although they are on for the broker, each with why'),
  })
  .meta({ id: 'DeadSummary' });
export type DeadSummary = z.infer<typeof ZDeadSummary>;

export const ZDeadDetail = ZDeadSummary.extend({
  ...detail,
  reason: z.string().nullable(),
  /**
   * For a letter of another system on a broker that can convert it (potatoq on RabbitMQ: a
   * Celery protocol 2 message): the message the conversion would send, or why it can't.
   * `note` says what is set again when it is sent.
   */
  conversion: ZConversion.optional(),
}).meta({ id: 'DeadDetail' });
export type DeadDetail = z.infer<typeof ZDeadDetail>;

/** Dead letters with the same error fingerprint (lib/triage/fingerprint.ts): exception type,
 *  message with what varies per task normalised, and the innermost frame of the project's code. */
export const ZDeadGroup = z
  .strictObject({
    /** The group's key (`fp-` + 16 hex): the dead list's and bulk jobs' `group` filter. */
    fingerprint: z.string(),
    /** `Type: message` with `<n>`, `<uuid>`, `<hex>`, `<str>`, `<path>`, `<time>`, ... placeholders. */
    pattern: z.string(),
    excType: z.string().nullable(),
    /** Innermost frame of the project's own code (`shop/billing.py in charge`), null when none. */
    frame: z.string().nullable(),
    /** The newest letter of the group, with its real one-line reason. */
    example: z.strictObject({ id: z.string(), summary: z.string() }),
    count: z.number().int(),
    tasks: z.array(z.string()),
    queues: z.array(z.string()),
    newestAt: isoOrNull,
    oldestAt: isoOrNull,
  })
  .meta({ id: 'DeadGroup' });
export type DeadGroup = z.infer<typeof ZDeadGroup>;

/** What `deadGroups` grouped: every dead letter (of the queue asked), or a bounded part of them. */
export const ZDeadGroupScope = z
  .strictObject({
    /** Letters grouped: the sum of the groups' counts. */
    grouped: z.number().int().min(0).describe("letters grouped: the sum of the groups' counts"),
    /** Every dead letter (of the queue asked) is in a group. False when the read was bounded and
     *  letters were left out (older than a window, beyond one read of a queue, ...). */
    complete: z.boolean().describe('every dead letter (of the queue asked) is in a group'),
    /** Set exactly when not complete: what was grouped and what was left out, in the operator's
     *  words (the adapter's own, e.g. "Grouped the newest 10,000 of 12,345 dead letters ..."). */
    note: z.string().optional().describe('set exactly when not complete: what was grouped and what was left out, in words'),
  })
  .meta({ id: 'DeadGroupScope' });
export type DeadGroupScope = z.infer<typeof ZDeadGroupScope>;

/** The answer of `deadGroups`: the groups, largest first, and what they cover. */
export const ZDeadGroups = z.strictObject({ groups: z.array(ZDeadGroup), scope: ZDeadGroupScope }).meta({ id: 'DeadGroups' });
export type DeadGroups = z.infer<typeof ZDeadGroups>;

/** Dead letters per time bucket (trend charts): bucket i is [fromMs + i·bucketMs, + bucketMs).
 *  An adapter's input, not an answer: a plain type. */
export interface DeadHistogramQuery {
  fromMs: number;
  bucketMs: number;
  buckets: number;
  queue?: string;
  /** A dead-letter group's fingerprint (`DeadGroup.fingerprint`). */
  group?: string;
}

export const ZDeadHistogram = z.strictObject({
  /** `buckets` counts, oldest first. */
  counts: z.array(z.number().int().min(0)),
  /** Matching letters without a died time (in no bucket). */
  undated: z.number().int().min(0),
  /** Set when only N letters were looked at (the newest, where the store keeps them by died time;
   *  Celery's result records have no such order); null when all were. */
  scannedNewest: z.number().int().nullable(),
});
export type DeadHistogram = z.infer<typeof ZDeadHistogram>;

export const ZResultSummary = z
  .strictObject({ id: z.string(), status: z.string(), name: z.string().nullable(), dateDone: isoOrNull, expiresAt: isoOrNull })
  .meta({ id: 'ResultSummary' });
export type ResultSummary = z.infer<typeof ZResultSummary>;
