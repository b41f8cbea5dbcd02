import 'server-only';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import type { Capability } from '@/lib/brokers/schema';
import { requireCapability, toConsoleError } from '@/lib/brokers/service';
import { forgetReads } from '@/lib/brokers/shared-reads';
import { mayWrite, type Principal } from '@/lib/auth/resolve';
import { newEntry, resultsOf } from '@/lib/audit/record';
import { getAuditStore } from '@/lib/audit/store';
import type { AuditEntry } from '@/lib/audit/types';
import { countAction } from '@/lib/metrics/actions';
import { hasVisibleText } from '@/lib/text/visible';
import { sameSiteRefusal } from './origin';
import { resolvePrincipal } from './principal';
import { parseInput } from '@/lib/brokers/parse-input';

/** Known actions; bulk jobs and later actions pass their own names (`bulk-replay`, …). */
export type GateAction = 'replay' | 'discard' | 'revoke' | 'purge' | 'enqueue' | 'enqueue-preview' | 'reveal' | (string & {});

export interface GateSpec<S extends z.ZodType, R> {
  action: GateAction;
  brokerId: string;
  /** Checked before running; null for actions that write nothing (previews). A function where
   *  it depends on the broker's declared model: asked only once the caller is let in. */
  capability: Capability | null | (() => Capability | null);
  schema: S;
  input: unknown;
  /** The request's headers (route handler) or `await headers()` (server action). */
  headers: Headers;
  /** `ctx.auditId` lets a long-running action (a bulk job) complete its entry later (lib/audit/complete). */
  run: (input: z.output<S>, ctx: GateContext) => Promise<R>;
  /** What the audit line says about the input and the outcome (queue, ids, counts, filter). */
  audit?: (input: z.output<S>, result: R) => Record<string, unknown>;
  /**
   * The operator's reason, recorded in the audit trail. Defaults to `input.reason`. Required
   * for destructive (discard, revoke, purge) and bulk actions unless `reasonRequired` says otherwise.
   */
  reason?: string;
  reasonRequired?: boolean;
  /** False for actions that change nothing (previews): no audit entry. Default true. */
  recorded?: boolean;
  /** Extra audit fields known before running (a bulk job's filter and snapshot count). */
  target?: (input: z.output<S>) => Record<string, unknown>;
}

export interface GateContext {
  principal: Principal;
  /** The audit entry of this call; null for unrecorded actions. */
  auditId: string | null;
  reason: string | null;
}

const MAX_LOGGED_IDS = 100;
const DESTRUCTIVE = new Set(['discard', 'revoke', 'purge']);

/** Caps an id list for the log: a 10,000-id replay must not write a megabyte line. */
export function logIds(ids: string[]): Record<string, unknown> {
  return ids.length > MAX_LOGGED_IDS ? { ids: ids.slice(0, MAX_LOGGED_IDS), idsTotal: ids.length } : { ids };
}

function logLine(fields: Record<string, unknown>): void {
  console.info(JSON.stringify({ at: new Date().toISOString(), event: 'console.action', ...fields }));
}

/** The reason an action's input may carry (required for destructive and bulk actions). */
export const ZReason = z.string().trim().max(1000, 'at most 1,000 characters');

function reasonOf(spec: Pick<GateSpec<z.ZodType, unknown>, 'action' | 'reason' | 'input' | 'reasonRequired'>): string | null {
  const raw = spec.reason ?? (spec.input && typeof spec.input === 'object' ? (spec.input as Record<string, unknown>).reason : undefined);
  const required = spec.reasonRequired ?? (DESTRUCTIVE.has(spec.action) || spec.action.startsWith('bulk'));
  const parsed = raw === undefined || raw === null ? { success: true as const, data: '' } : ZReason.safeParse(raw);
  if (!parsed.success)
    throw new ConsoleError('InvalidInput', `reason: ${parsed.error.issues[0]?.message}`, {
      reason: parsed.error.issues[0]?.message ?? 'invalid',
    });
  // Zero-width spaces and bidi marks are not a reason (lib/text/visible).
  const reason = hasVisibleText(parsed.data) ? parsed.data : '';
  if (required && !reason)
    throw new ConsoleError('InvalidInput', `reason: say why (required to ${spec.action})`, {
      reason: 'say why; it goes into the audit trail',
    });
  return reason || null;
}

/**
 * Id actions do not name a queue; the UI sends the queue the operator was looking at, kept in
 * the audit entry as said (the per-id outcomes are the authority on what happened).
 */
function queueHint(raw: unknown): Record<string, unknown> {
  const q = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).queue : undefined;
  return typeof q === 'string' && q.length > 0 && q.length <= 500 ? { queue: q } : {};
}

/**
 * The one gate in front of every write, used by server actions and POST routes alike:
 * same-site check -> principal -> input validation (bounded: see ZIds) -> role (and per-broker
 * read-only) -> reason -> capability -> audit entry (pending) -> service call -> audit
 * outcome + log line. Input is validated before anything is recorded, so a refusal never
 * stores what the caller sent, only the parsed, bounded input. Nothing runs when the audit
 * trail cannot be written. Throws ConsoleError; callers turn it into an HTTP status or an
 * ActionResponse.
 */
export async function gate<S extends z.ZodType, R>(spec: GateSpec<S, R>): Promise<R> {
  const recorded = spec.recorded ?? spec.action !== 'enqueue-preview';
  const base: Record<string, unknown> = { action: spec.action, broker: spec.brokerId, who: 'unknown' };
  let principal: Principal | null = null;
  let entry: AuditEntry | null = null;
  let parsedInput: unknown = null;
  let ran = false;
  try {
    const crossSite = sameSiteRefusal(spec.headers);
    if (crossSite) throw new ConsoleError('Forbidden', crossSite);
    principal = await resolvePrincipal(spec.headers);
    Object.assign(base, {
      who: principal.user,
      role: principal.role,
      via: principal.via,
      subject: principal.sub ?? null,
      issuer: principal.iss ?? null,
    });
    const input = parseInput(spec.schema, spec.input);
    parsedInput = input;
    if (principal.role !== 'operator') throw new ConsoleError('Forbidden', `${principal.user} is a viewer and may not ${spec.action}`);
    if (!mayWrite(principal, spec.brokerId))
      throw new ConsoleError('Forbidden', `${principal.user} may only read broker "${spec.brokerId}"`);
    const reason = reasonOf(spec);
    const capability = typeof spec.capability === 'function' ? spec.capability() : spec.capability;
    if (capability) await requireCapability(spec.brokerId, capability);
    const store = recorded ? await getAuditStore().catch(() => null) : null;
    if (recorded) {
      entry = newEntry({
        action: spec.action,
        broker: spec.brokerId,
        who: { user: principal.user, role: principal.role, via: principal.via, sub: principal.sub, iss: principal.iss },
        input,
        reason,
        extra: { ...queueHint(spec.input), ...spec.target?.(input) },
      });
      if (!store) throw new ConsoleError('Internal', 'the audit trail cannot be written, so nothing was changed');
      await store.begin(entry).catch(() => {
        throw new ConsoleError('Internal', 'the audit trail cannot be written, so nothing was changed');
      });
    }
    ran = true;
    // Shared reads of this broker from before the write are not answered after it (whatever
    // the action: schedules and workflows write outside the service's own write door).
    const result = await spec.run(input, { principal, auditId: entry?.id ?? null, reason }).finally(() => forgetReads(spec.brokerId));
    const details = spec.audit?.(input, result) ?? {};
    if (entry && store) {
      const { results, outcome } = resultsOf(result);
      const addIds = entry.ids.length ? [] : results.map((r) => r.id);
      await store
        .finish(entry.id, {
          outcome,
          code: null,
          message: null,
          results,
          details,
          finishedAt: new Date().toISOString(),
          queue: typeof details.queue === 'string' ? details.queue : undefined,
          addIds,
        })
        .catch((e) => logLine({ ...base, event: 'console.audit-error', message: String(e) }));
    }
    if (recorded) {
      logLine({ ...base, outcome: 'done', ...(reason ? { reason } : {}), ...(entry ? { audit: entry.id } : {}), ...details });
      countAction(spec.brokerId, spec.action, resultsOf(result).outcome);
    }
    return result;
  } catch (e) {
    const err = toConsoleError(e);
    if (recorded) {
      logLine({ ...base, outcome: ran ? 'failed' : 'refused', code: err.code, message: err.message });
      countAction(spec.brokerId, spec.action, ran ? 'failed' : 'refused');
      await recordFailure(entry, principal, { action: spec.action, brokerId: spec.brokerId, input: parsedInput }, ran, err).catch(() => {});
    }
    throw err;
  }
}

/** Refusals stored per user and minute; past that only the log line says so (one viewer
 *  scripting refusals must not fill the state store). Per console process. */
export const REFUSALS_PER_MINUTE = 20;
/** Ids kept in a refusal's entry (the count is kept in full). */
export const REFUSAL_IDS = 20;
const newRefusalLimit = () => new RateLimiterMemory({ points: REFUSALS_PER_MINUTE, duration: 60, keyPrefix: 'refusals' });
// Next loads this module once for the server actions and once for the route handlers: one
// limit for the process, or a caller refused through both would be stored twice as often.
const g = globalThis as unknown as { __potatoqRefusalLimit?: RateLimiterMemory };
const refusals = () => (g.__potatoqRefusalLimit ??= newRefusalLimit());

/** Tests only. */
export function resetRefusalLimit(): void {
  g.__potatoqRefusalLimit = newRefusalLimit();
}

/**
 * A started action that threw is marked failed. A refusal is recorded only for a known
 * principal with valid input (role, read-only, reason, capability), compactly (the first
 * REFUSAL_IDS ids, no results) and at most REFUSALS_PER_MINUTE per user: anonymous floods and
 * invalid input stay in the log lines.
 */
async function recordFailure(
  entry: AuditEntry | null,
  principal: Principal | null,
  spec: { action: string; brokerId: string; input: unknown },
  ran: boolean,
  err: ConsoleError,
): Promise<void> {
  if (err.code === 'InvalidInput' && !ran && !entry) return;
  const store = await getAuditStore();
  const patch = { code: err.code, message: err.message.slice(0, 500), results: [], details: {}, finishedAt: new Date().toISOString() };
  if (entry && ran) return store.finish(entry.id, { ...patch, outcome: 'failed' });
  if (entry) return store.finish(entry.id, { ...patch, outcome: 'refused' });
  if (!principal || spec.input === null) return;
  const allowed = await refusals()
    .consume(principal.user)
    .then(
      () => true,
      () => false,
    );
  if (!allowed) {
    logLine({
      action: spec.action,
      broker: spec.brokerId,
      who: principal.user,
      event: 'console.audit-suppressed',
      reason: `more than ${REFUSALS_PER_MINUTE} refusals a minute; not stored`,
    });
    return;
  }
  const refused = newEntry({
    action: spec.action,
    broker: spec.brokerId,
    who: { user: principal.user, role: principal.role, via: principal.via, sub: principal.sub, iss: principal.iss },
    input: spec.input,
    reason: null,
  });
  await store.begin({ ...refused, ids: refused.ids.slice(0, REFUSAL_IDS), ...patch, outcome: 'refused' });
}
