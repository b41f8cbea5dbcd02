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

/** Parses with a zod schema or throws InvalidInput naming the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields = fieldsOf(parsed.error);
  const [key, message] = Object.entries(fields)[0] ?? ['_', 'invalid input'];
  throw new ConsoleError('InvalidInput', key === '_' ? message : `${key}: ${message}`, fields);
}
