import 'server-only';
import type { ChordProgress } from '@/lib/brokers/family/build';
import type { Page, ResultListQuery, ResultRecordDto, ResultSummary, WorkerInfo } from '@/lib/brokers/schema';
import { isoFromEpoch } from './mappers';
import { type Liveness, parseHeartbeatInfo, registeredDigest, toWorkerInfo } from './heartbeats';

export { isInternalResult, REGISTERED_PREFIX, type Liveness } from './heartbeats';

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
  /** A chord's counters as potatoq keeps them in this backend (Redis `P:chord:<group>`, SQL
   *  `chord_parts`/`chords`); null: none stored (not started, expired after 7 days). */
  chord(groupId: string): Promise<ChordProgress | null>;
  /** Task names from the `potatoq-registered-*` records. */
  registeredNames(): Promise<string[]>;
  close(): Promise<void>;
}

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
  const info = parseHeartbeatInfo(infoText);
  const hb = heartbeat ?? (typeof info.heartbeat === 'number' ? info.heartbeat : null);
  const digest = registeredDigest(info);
  return toWorkerInfo({
    id,
    info,
    heartbeatIso: isoFromEpoch(hb),
    ageSeconds: hb === null ? 0 : now - hb,
    live,
    registered: digest === null ? null : registered(digest),
  });
}

/** The REVOKED record potatoq's RabbitMQ `revoke` stores (no task name: it never saw the message). */
export { revokedRecord } from './records';
