// Parsing an input with zod into a typed value or an InvalidInput that names the field: used by the
// write gate, the route handlers and adapters that check a system's own input (QueueFlow's enqueue).
import type { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';

/** Field path -> first message, as forms show them under each input. */
export function fieldsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** JSON levels any input may nest: edited arguments (two levels per typed value) up to 100. */
export const MAX_INPUT_DEPTH = 250;

/**
 * The top-level field (`_` for the input itself) under which `value` nests arrays/objects more
 * than `max` levels, or null. Iterative, one pass, no recursion: a hostile depth never reaches
 * zod, whose recursive parse would exhaust the call stack (a RangeError, answered 503, not 400).
 */
export function tooDeepAt(value: unknown, max: number): string | null {
  const stack: Array<[unknown, number, string]> = [[value, 0, '_']];
  while (stack.length) {
    const [v, depth, top] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return top;
    const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    for (const [k, x] of entries) if (x !== null && typeof x === 'object') stack.push([x, depth + 1, depth === 0 ? k : top]);
  }
  return null;
}

/** Parses with a zod schema or throws InvalidInput naming the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const deep = tooDeepAt(input, MAX_INPUT_DEPTH);
  if (deep !== null) {
    const why = `is nested more than ${MAX_INPUT_DEPTH} levels deep`;
    throw new ConsoleError('InvalidInput', deep === '_' ? why : `${deep}: ${why}`, { [deep]: why });
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields = fieldsOf(parsed.error);
  const [key, message] = Object.entries(fields)[0] ?? ['_', 'invalid input'];
  throw new ConsoleError('InvalidInput', key === '_' ? message : `${key}: ${message}`, fields);
}
