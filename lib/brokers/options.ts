import 'server-only';
import type { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';

// Checking a broker entry's options against its system's zod schema (each system owns its schema:
// lib/brokers/<system>/options.ts). Boot checks served entries through the registry; an adapter
// created directly (tests, the bench) checks its own here, with the same message.

/** The typed options of an adapter created directly (tests, the bench); boot has checked served ones. */
export function parseOptions<T>(schema: z.ZodType<T>, options: Record<string, unknown>): T {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw new ConsoleError('InvalidInput', `broker option ${where}${issue.message}`);
}
