import 'server-only';
import type { Page, ResultListQuery, ResultRecordDto, ResultSummary, WorkerInfo } from '../schema';
import { isoFromEpoch } from '../sqlite/mappers';

/** potatoq's heartbeat thresholds (stale after 3 beats of 5 s, dead after `worker_dead_after`). */
export interface Liveness {
  staleAfter: number;
  deadAfter: number;
}

/**
 * Where potatoq keeps results, revocation marks and heartbeats for a RabbitMQ broker: its
 * `result_backend` (Redis, PostgreSQL or SQLite), read and written with potatoq's layout.
 */
export interface ResultBackend {
  readonly kind: 'redis' | 'postgres' | 'sqlite';
  getResult(id: string): Promise<ResultRecordDto | null>;
  /** potatoq's `store_result(ResultRecord(id, REVOKED, date_done=now), result_expires)`. */
  storeRevoked(ids: string[], expiresSeconds: number): Promise<void>;
  workers(live: Liveness): Promise<WorkerInfo[]>;
  listResults(q: ResultListQuery): Promise<Page<ResultSummary>>;
  /** Task names from the `potatoq-registered-*` records. */
  registeredNames(): Promise<string[]>;
  close(): Promise<void>;
}

export const REGISTERED_PREFIX = 'potatoq-registered-';
export const isInternalResult = (id: string) => id.startsWith(REGISTERED_PREFIX) || id.startsWith('group:');

function parseInfo(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const scalar = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/**
 * A heartbeat entry as potatoq's Redis backend stores it: `json.dumps({**info, "heartbeat": t})`
 * in the `<prefix>:workers` hash. Garbage from a foreign writer is shown, not fatal.
 */
export function mapWorker(
  id: string,
  infoText: string | null,
  heartbeat: number | null,
  live: Liveness,
  registered: (digest: string) => string[] | null,
  now = Date.now() / 1000,
): WorkerInfo {
  const info = parseInfo(infoText);
  const hb = heartbeat ?? (typeof info.heartbeat === 'number' ? info.heartbeat : null);
  const age = hb === null ? 0 : Math.max(0, now - hb);
  const digest = typeof info.registered === 'string' ? info.registered : null;
  return {
    id,
    hostname: typeof info.hostname === 'string' ? info.hostname : null,
    pid: scalar(info.pid),
    queues: strings(info.queues),
    concurrency: scalar(info.concurrency),
    threads: scalar(info.threads),
    running: strings(info.running),
    heartbeatAt: isoFromEpoch(hb) ?? new Date(0).toISOString(),
    ageSeconds: Math.round(age * 10) / 10,
    status: age < live.staleAfter ? 'alive' : age <= live.deadAfter ? 'stale' : 'dead',
    registered: digest === null ? null : registered(digest),
  };
}

/** The REVOKED record potatoq's RabbitMQ `revoke` stores (no task name: it never saw the message). */
export { revokedRecord } from '../sqlite/writes-revoke';
