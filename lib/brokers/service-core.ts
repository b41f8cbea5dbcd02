import 'server-only';
import { ConsoleError, isConsoleError } from './errors';
import { getConfig } from '@/lib/config';
import { redactSecrets } from '@/lib/text/secrets';
import { findBrokerConfig, getAdapter } from './registry';
import { paramsKey } from './read-cache';
import { forgetReads, sharedReads } from './shared-reads';
import type { Capability } from './schema';
import type { BrokerAdapter } from './types';
import { scheduleCaps } from './schedule-model';
import { SCHEDULE_CAPABILITIES, type ScheduleCapability } from './model';

// How every call of the broker service (./service.ts) reaches an adapter: under a timeout, its
// errors mapped once, NUL input refused, reads shared, writes behind a capability check.

const isScheduleCapability = (c: Capability): c is ScheduleCapability => (SCHEDULE_CAPABILITIES as readonly string[]).includes(c);

/** Why an action is off on a broker configured read-only. */
export const READ_ONLY_WHY = 'configured read-only';

// Parsed and checked at boot (lib/config.ts): a bad value stops startup.
export const readTimeoutMs = () => getConfig().timeouts.readMs;
export const writeTimeoutMs = () => getConfig().timeouts.writeMs;

/** A PostgreSQL server error (pg's DatabaseError): a severity and a five-character SQLSTATE. */
function sqlState(e: unknown): string | null {
  if (!(e instanceof Error)) return null;
  const x = e as Error & { code?: unknown; severity?: unknown };
  return typeof x.severity === 'string' && typeof x.code === 'string' && /^[0-9A-Z]{5}$/.test(x.code) ? x.code : null;
}

export function toConsoleError(e: unknown): ConsoleError {
  if (isConsoleError(e)) return e;
  const state = sqlState(e);
  if (state) {
    // The server's text may quote the query or its values: it goes to the log, not to callers.
    console.error(JSON.stringify({ event: 'console.database-error', sqlstate: state, message: redactSecrets((e as Error).message) }));
    return new ConsoleError('BrokerUnavailable', `the database refused the request (SQLSTATE ${state}); the console's log has the details`);
  }
  const message = e instanceof Error ? e.message : String(e);
  // ConsoleError hides any credential a driver put into its text.
  return new ConsoleError('BrokerUnavailable', message || 'broker error');
}

export async function withTimeout<T>(what: string, ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConsoleError('BrokerTimeout', `${what} took longer than ${ms / 1000}s`)), ms);
  });
  try {
    return await Promise.race([run(), timeout]);
  } catch (e) {
    throw toConsoleError(e);
  } finally {
    clearTimeout(timer);
  }
}

/** A NUL character anywhere in the input (ids, filters, search text, enqueue fields), looked
 *  for before any system sees it: PostgreSQL text cannot hold one, and no system's names do. */
export function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (depth > 8 || v === null || typeof v !== 'object') return false;
  return (Array.isArray(v) ? v : Object.values(v)).some((x) => hasNul(x, depth + 1));
}

export const NUL = () => new ConsoleError('InvalidInput', 'input contains a NUL character');

export function read<T>(brokerId: string, what: string, fn: (a: BrokerAdapter) => Promise<T>, input?: unknown): Promise<T> {
  if (hasNul(input)) return Promise.reject(NUL());
  return withTimeout(what, readTimeoutMs(), async () => fn(getAdapter(brokerId)));
}

/** A read that identical requests share while it is fresh (lib/brokers/read-cache.ts: in
 *  flight, then for the configured few seconds). `params` is everything the read depends on
 *  besides the broker; the answer is broker data, and what a caller may see of it is decided
 *  above (lib/auth). */
export function shared<T>(brokerId: string, what: string, params: unknown, fn: (a: BrokerAdapter) => Promise<T>): Promise<T> {
  if (hasNul(params)) return Promise.reject(NUL());
  return sharedReads().read(brokerId, `${what}\u0000${paramsKey(params)}`, () =>
    withTimeout(what, readTimeoutMs(), async () => fn(getAdapter(brokerId))),
  );
}

/** Refuses an action the configuration or the broker does not allow. */
export async function requireCapability(brokerId: string, capability: Capability): Promise<BrokerAdapter> {
  const config = findBrokerConfig(brokerId);
  if (config.readOnly) throw new ConsoleError('ReadOnly', `broker "${brokerId}" is configured read-only`);
  const adapter = getAdapter(brokerId);
  const caps = await withTimeout('capability probe', readTimeoutMs(), () => adapter.capabilities());
  // A schedule capability the adapter does not answer is its model's (lib/brokers/schedule-model.ts).
  const cap = caps[capability] ?? (isScheduleCapability(capability) ? scheduleCaps(adapter.model)[capability] : undefined) ?? { on: false };
  if (!cap.on) throw new ConsoleError('Unsupported', cap.why ?? `${capability} is not available on this broker`);
  return adapter;
}

export function write<T>(
  brokerId: string,
  capability: Capability,
  what: string,
  fn: (a: BrokerAdapter) => Promise<T>,
  input?: unknown,
): Promise<T> {
  if (hasNul(input)) return Promise.reject(NUL());
  // What was read of the broker before the write (or during it) is not shared after it.
  return withTimeout(what, writeTimeoutMs(), async () => fn(await requireCapability(brokerId, capability))).finally(() =>
    forgetReads(brokerId),
  );
}
