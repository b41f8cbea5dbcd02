// A call mapping: how one task's calls convert between two call models (a broker whose tasks
// take positional args and kwargs, and one whose jobs take a named payload object), per (source
// broker, target broker, task name). Which side is which comes from what each adapter declares
// (`model.task.payload.shape`: 'call' or 'value'); nothing here names a system. Client-safe:
// the mapping editor validates with the same schema the server stores with.
import { z } from 'zod';

/** The values JSON cannot hold, each with the encodings a mapping may choose for it. */
export const NON_JSON = {
  datetime: { iso8601: 'ISO 8601 text, with its offset when it has one (2026-01-02T03:04:05+00:00)' },
  date: { iso8601: 'ISO 8601 text (2026-01-02)' },
  time: { iso8601: 'ISO 8601 text (03:04:05)' },
  timedelta: { seconds: 'a number of seconds (90.5)' },
  uuid: { text: 'its canonical text (00000000-0000-0000-0000-000000000005)' },
  decimal: { text: 'its exact digits as text ("1.50")', number: 'a JSON number (may round: 1.5)' },
  bytes: { base64: 'base64 text' },
  set: { list: 'a JSON list, in the order the letter stores it' },
} as const;
export type NonJsonKind = keyof typeof NON_JSON;
export const NON_JSON_KINDS = Object.keys(NON_JSON) as NonJsonKind[];

const ZKey = z
  .string()
  .trim()
  .min(1, 'name the payload key')
  .max(200, 'at most 200 characters')
  .refine((s) => !s.includes('\u0000'), 'no NUL characters');

/** A JSON value, bounded (a default the operator types). */
const ZJson: z.ZodType<unknown> = z.json();

const ZEncodings = z.strictObject(
  Object.fromEntries(
    NON_JSON_KINDS.map((k) => [
      k,
      z
        .enum(['refuse', ...Object.keys(NON_JSON[k])] as [string, ...string[]], {
          error: `${k}: ${Object.keys(NON_JSON[k]).join(', ')} or refuse`,
        })
        .optional(),
    ]),
  ) as Record<NonJsonKind, z.ZodOptional<z.ZodEnum<Record<string, string>>>>,
);
export type Encodings = Partial<Record<NonJsonKind, string>>;

const int = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what}: a whole number` })
    .int(`${what}: a whole number`)
    .min(min, `${what}: at least ${min}`)
    .max(max, `${what}: at most ${max}`);

/** The retry settings the target job gets (the operator's choice; absent: the target's defaults). */
export const ZRetryChoice = z.strictObject({
  maxRetries: int('max retries', 0, 1000).optional(),
  backoff: z.enum(['fixed', 'linear', 'exponential'], { error: 'backoff: fixed, linear or exponential' }).optional(),
  delaySecs: int('retry delay', 0, 86_400 * 365).optional(),
});

const ZName = z.string().trim().min(1, 'required').max(500, 'at most 500 characters');

export const ZCallMapping = z
  .strictObject({
    source: ZName,
    target: ZName,
    /** The task name on the source broker. */
    task: ZName,
    /** The task name on the target; absent: the same name. */
    targetTask: ZName.optional(),
    /** The target's queue; absent: the letter's own queue. */
    queue: ZName.optional(),
    /** Positional argument i <-> payload key `args[i]` (kwargs keep their names). */
    args: z.array(ZKey).max(100, 'at most 100 positional arguments'),
    /** Payload keys (or kwargs) given this value when the letter has none for them. */
    defaults: z.record(ZKey, ZJson).default({}),
    /** Per value JSON cannot hold: its encoding, or `refuse` (absent: refused too). */
    encodings: ZEncodings.default({}),
    retry: ZRetryChoice.default({}),
  })
  .superRefine((m, ctx) => {
    const seen = new Map<string, number>();
    m.args.forEach((k, i) => {
      const first = seen.get(k);
      if (first !== undefined)
        ctx.addIssue({ code: 'custom', path: ['args', i], message: `payload key "${k}" is already positional argument ${first}` });
      else seen.set(k, i);
    });
    if (m.source === m.target) ctx.addIssue({ code: 'custom', path: ['target'], message: 'the target is the source broker' });
    if (Object.keys(m.defaults).length > 200) ctx.addIssue({ code: 'custom', path: ['defaults'], message: 'at most 200 defaults' });
  })
  .meta({ id: 'CallMapping' });
export type CallMapping = z.output<typeof ZCallMapping>;
export type CallMappingInput = z.input<typeof ZCallMapping>;

/** A stored mapping with who changed it last. */
export const ZStoredMapping = z.strictObject({ mapping: ZCallMapping, updatedAt: z.string(), updatedBy: z.string() });
export type StoredMapping = z.infer<typeof ZStoredMapping>;

/** An export: every mapping, as `importMappings` takes them back. */
export const ZMappingExport = z.strictObject({
  version: z.literal(1, { error: 'version: 1' }),
  mappings: z.array(ZCallMapping).max(5000, 'at most 5,000 mappings'),
});
export type MappingExport = z.infer<typeof ZMappingExport>;

/** One letter of a move preview (POST /move-preview): its call beside the exact job it becomes. */
export interface MovePreviewItem {
  id: string;
  /** The call as Python reprs; null when the letter could not be read. */
  source: { id: string; task: string; queue: string; args: string; kwargs: string; priority: number | null; eta: string | null } | null;
  job: {
    sourceId: string;
    key: string;
    task: string;
    queue: string;
    payload: Record<string, unknown>;
    priority: number | null;
    runAt: string | null;
    retry: { maxRetries?: number; backoff?: string; delaySecs?: number };
  } | null;
  /** The way back (a named-payload job to a positional call; `job` and `source` null): the job
   *  as it is here, and the exact call it becomes, args and kwargs as Python reprs. */
  letter?: { jobId: string; task: string; queue: string; payload: unknown; priority: number | null } | null;
  call?: { id: string; task: string; queue: string; args: string; kwargs: string; priority: number | null } | null;
  /** Problems keyed by where they are (`args[2]`, `kwargs.when`, `payload.order`, `task`); empty: it can move. */
  problems: Record<string, string>;
  /** What the job cannot carry of the call, each in words; and the encodings applied. */
  notCarried: string[];
  notes: string[];
}
