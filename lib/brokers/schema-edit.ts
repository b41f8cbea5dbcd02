// The edited fields of a dead letter to replay (typed values, never raw tagged JSON), and the
// preview of the message before and after. Client-safe; zod for the server's checks.
import { z } from 'zod';
import { ZActionOutcome } from './dto-actions';
import type { TypedValue } from './typed-value';

const ZText = z.string().max(100_000);

/** A typed value as the editor sends it: a request's input, so bounded (text, lists) and with
 *  defaults for what the editor may leave out. Not the answers' definition (`ZTypedValue` in
 *  typed-value.ts, exact and unbounded: a value the console shows is already cut). */
export const ZTypedValueInput: z.ZodType<TypedValue> = z
  .lazy(() =>
    z.discriminatedUnion('t', [
      z.object({ t: z.literal('null') }),
      z.object({ t: z.literal('bool'), v: z.boolean() }),
      z.object({ t: z.literal('int'), v: ZText }),
      z.object({ t: z.literal('float'), v: ZText }),
      z.object({ t: z.literal('str'), v: ZText, truncated: z.number().optional() }),
      z.object({ t: z.literal('list'), items: z.array(ZTypedValueInput).max(10_000), truncated: z.number().optional() }),
      z.object({ t: z.literal('tuple'), items: z.array(ZTypedValueInput).max(10_000) }),
      z.object({
        t: z.literal('dict'),
        entries: z.array(z.tuple([z.string().max(1000), ZTypedValueInput])).max(10_000),
        truncated: z.number().optional(),
        note: z.object({ code: z.string(), label: z.string(), why: z.string() }).optional(),
      }),
      z.object({ t: z.literal('datetime'), v: ZText, aware: z.boolean().default(false), epochMs: z.number().nullable().default(null) }),
      z.object({ t: z.literal('date'), v: ZText }),
      z.object({ t: z.literal('time'), v: ZText }),
      z.object({ t: z.literal('timedelta'), seconds: ZText }),
      z.object({ t: z.literal('uuid'), v: ZText }),
      z.object({ t: z.literal('decimal'), v: ZText }),
      z.object({ t: z.literal('bytes'), base64: z.string().max(10_000_000), size: z.number().default(0) }),
      z.object({ t: z.literal('set'), items: z.array(ZTypedValueInput).max(10_000) }),
      z.object({ t: z.literal('deep'), depth: z.number() }),
    ]),
  )
  .meta({ id: 'TypedValueInput' }) as z.ZodType<TypedValue>;

/** What an operator changed; absent fields keep the letter's own. */
export const ZReplayEdit = z.object({
  args: z.array(ZTypedValueInput).max(1000).optional(),
  kwargs: z
    .array(z.tuple([z.string().max(200), ZTypedValueInput]))
    .max(1000)
    .optional(),
  queue: z.string().trim().min(1, 'queue must not be empty').max(500).optional(),
  priority: z.coerce.number().int('priority must be a whole number').min(-1_000_000).max(1_000_000).optional(),
});
export type ReplayEditInput = z.infer<typeof ZReplayEdit>;

export const ZReplayEditRequest = ZReplayEdit.extend({ reason: z.string().max(1000).optional() });

/** The message a replay with edits would write, beside the one a plain replay writes. One zod
 *  definition, the type inferred (docs/architecture.md, "One definition per response"). */
export const ZEditPreview = z
  .strictObject({
    brokerId: z.string(),
    id: z.string(),
    /** What a plain replay writes (the letter re-encoded, as the system replays it). */
    before: z.string().describe('what a plain replay writes'),
    /** What this edit writes instead. */
    after: z.string().describe('what this edit writes'),
    /** The id the task runs under afterwards: the letter's own (`sameId`) or a new one. */
    newId: z.string(),
    sameId: z.boolean().describe('the task keeps the letter’s id'),
    /** The system's semantics in one sentence (from its adapter's declaration). */
    does: z.string(),
  })
  .meta({ id: 'EditPreview' });
export type EditPreview = z.infer<typeof ZEditPreview>;

/** The replay's outcome is an action's (`taskId`: the new job where the system replays under a
 *  new id, QueueFlow). */
export const ZEditReplayResult = ZEditPreview.extend({ outcome: ZActionOutcome }).meta({ id: 'EditReplay' });
export type EditReplayResult = z.infer<typeof ZEditReplayResult>;
