import 'server-only';
import type { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import type { Capability } from '@/lib/brokers/schema';
import { requireCapability, toConsoleError } from '@/lib/brokers/service';
import { crossSiteReason } from './origin';
import { resolvePrincipal } from './principal';
import { parseInput } from './zod-fields';

export type GateAction = 'replay' | 'discard' | 'revoke' | 'purge' | 'enqueue' | 'enqueue-preview';

export interface GateSpec<S extends z.ZodType, R> {
  action: GateAction;
  brokerId: string;
  /** Checked before running; null for actions that write nothing (previews). */
  capability: Capability | null;
  schema: S;
  input: unknown;
  /** The request's headers (route handler) or `await headers()` (server action). */
  headers: Headers;
  run: (input: z.output<S>) => Promise<R>;
  /** What the audit line says about the input and the outcome (queue, ids, counts). */
  audit?: (input: z.output<S>, result: R) => Record<string, unknown>;
}

const MAX_LOGGED_IDS = 100;

/** Caps an id list for the log: a 10,000-id replay must not write a megabyte line. */
export function logIds(ids: string[]): Record<string, unknown> {
  return ids.length > MAX_LOGGED_IDS ? { ids: ids.slice(0, MAX_LOGGED_IDS), idsTotal: ids.length } : { ids };
}

function logLine(fields: Record<string, unknown>): void {
  console.info(JSON.stringify({ at: new Date().toISOString(), event: 'console.action', ...fields }));
}

/**
 * The one gate in front of every write, used by server actions and POST routes alike:
 * same-site check -> principal -> input validation -> capability -> service call -> audit log.
 * Throws ConsoleError; callers turn it into an HTTP status or an ActionResponse.
 */
export async function gate<S extends z.ZodType, R>(spec: GateSpec<S, R>): Promise<R> {
  const base: Record<string, unknown> = { action: spec.action, broker: spec.brokerId, who: 'unknown' };
  try {
    const crossSite = crossSiteReason(spec.headers);
    if (crossSite) throw new ConsoleError('Forbidden', crossSite);
    const principal = await resolvePrincipal(spec.headers);
    base.who = principal.user;
    base.role = principal.role;
    if (principal.role !== 'operator') throw new ConsoleError('Forbidden', `${principal.user} may not ${spec.action}`);
    const input = parseInput(spec.schema, spec.input);
    if (spec.capability) await requireCapability(spec.brokerId, spec.capability);
    const result = await spec.run(input);
    if (spec.action !== 'enqueue-preview') logLine({ ...base, outcome: 'done', ...(spec.audit?.(input, result) ?? {}) });
    return result;
  } catch (e) {
    const err = toConsoleError(e);
    if (spec.action !== 'enqueue-preview') logLine({ ...base, outcome: 'refused', code: err.code, message: err.message });
    throw err;
  }
}
