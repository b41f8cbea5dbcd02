import 'server-only';
import type { WorkerInfo } from '@/lib/brokers/schema';

// potatoq's worker heartbeats, as every broker (or RabbitMQ's result backend) stores them:
// an id -> `json.dumps(info)` with hostname, pid, queues, concurrency, threads, running and
// the digest of the registered task names. Shared by every adapter.

/** Results that are potatoq's own records, not tasks: registered names and group results. */
export const REGISTERED_PREFIX = 'potatoq-registered-';
export const isInternalResult = (id: string) => id.startsWith(REGISTERED_PREFIX) || id.startsWith('group:');

/** potatoq's defaults: heartbeat every 5 s, `potatoq status` dims a node after 3 beats,
 *  recovery treats it as dead after `worker_dead_after` = 60 s. */
export interface Liveness {
  staleAfter: number;
  deadAfter: number;
}

/** Heartbeat info is plain json.dumps; anything else (a foreign writer) is tolerated. */
export function parseHeartbeatInfo(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The registered-names digest a heartbeat points at, if any. */
export const registeredDigest = (info: Record<string, unknown>): string | null =>
  typeof info.registered === 'string' ? info.registered : null;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const scalar = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/** One heartbeat as the console shows it; `ageSeconds` is measured on the broker's clock where it has one. */
export function toWorkerInfo(w: {
  id: string;
  info: Record<string, unknown>;
  heartbeatIso: string | null;
  ageSeconds: number;
  live: Liveness;
  registered: string[] | null;
}): WorkerInfo {
  const { info, live } = w;
  const age = Math.max(0, w.ageSeconds);
  return {
    id: w.id,
    hostname: typeof info.hostname === 'string' ? info.hostname : null,
    pid: scalar(info.pid),
    queues: strings(info.queues),
    concurrency: scalar(info.concurrency),
    threads: scalar(info.threads),
    running: strings(info.running),
    heartbeatAt: w.heartbeatIso ?? new Date(0).toISOString(),
    ageSeconds: Math.round(age * 10) / 10,
    status: age < live.staleAfter ? 'alive' : age <= live.deadAfter ? 'stale' : 'dead',
    registered: w.registered,
  };
}
