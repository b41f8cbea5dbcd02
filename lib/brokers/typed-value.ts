// The console's neutral typed value: what an argument, a header or a stored result holds,
// whatever the system's wire format (potatoq's `__potatoq__` tags, kombu's `__type__` JSON
// markers, plain JSON). JSON-safe for the browser; numbers are the exact text the producer
// wrote (big integers, NaN, Infinity), never JS numbers. Client-safe: no server imports.
// Each system's codec maps into it inside its own folder (lib/brokers/<system>/).
import { z } from 'zod';

/** Why a value is shown as plain data although it looks typed (e.g. a tag the system does not
 *  know): `label` for the badge, `why` for its tooltip. */
export const ZValueNote = z
  .strictObject({ code: z.string(), label: z.string(), why: z.string() })
  .meta({ id: 'ValueNote', description: 'Why a value is shown as plain data although it looks typed.' });
export type ValueNote = z.infer<typeof ZValueNote>;

// The one place a response type is written by hand: TypeScript cannot infer a recursive type
// from a zod schema (the schema's getters or z.lazy need the type spelled out anyway), so the
// type is written here and `ZTypedValue` is held to it both ways (typed-value.test.ts).
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

const text = <T extends string>(t: T) => z.strictObject({ t: z.literal(t), v: z.string() });
/** How many items or characters were cut (the value holds the first ones). */
const truncated = z.number().int().min(0).optional();
const items = () => z.array(ZTypedValue);

export const ZTypedValue: z.ZodType<TypedValue> = z
  .lazy(() =>
    z.discriminatedUnion('t', [
      z.strictObject({ t: z.literal('null') }),
      z.strictObject({ t: z.literal('bool'), v: z.boolean() }),
      text('int').describe('the exact digits'),
      text('float').describe('the exact text, NaN and Infinity included'),
      z.strictObject({ t: z.literal('str'), v: z.string(), truncated }),
      z.strictObject({ t: z.literal('list'), items: items(), truncated }),
      z.strictObject({ t: z.literal('tuple'), items: items() }),
      z.strictObject({
        t: z.literal('dict'),
        entries: z.array(z.tuple([z.string(), ZTypedValue])),
        note: ZValueNote.optional(),
        truncated,
      }),
      z.strictObject({ t: z.literal('datetime'), v: z.string(), aware: z.boolean(), epochMs: z.number().nullable() }),
      text('date'),
      text('time'),
      z.strictObject({ t: z.literal('timedelta'), seconds: z.string() }),
      text('uuid'),
      text('decimal'),
      z.strictObject({ t: z.literal('bytes'), base64: z.string(), size: z.number().int().min(0) }),
      z.strictObject({ t: z.literal('set'), items: items() }),
      z.strictObject({ t: z.literal('deep'), depth: z.number().int() }).describe('nesting deeper than the console renders'),
    ]),
  )
  .meta({ id: 'TypedValue', description: 'A value as the console shows it, JSON-safe; numbers as their exact text.' });
