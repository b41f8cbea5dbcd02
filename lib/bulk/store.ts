import 'server-only';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { BulkAction, BulkFilter, BulkState, Interruption } from './schema';

export type { Interruption };

// Bulk jobs in the console's state store (POTATOQ_CONSOLE_STATE: the SQLite file, or the
// PostgreSQL database several instances share): a job survives a restart of the console that
// ran it, and every instance behind a load balancer sees, pauses and cancels it.

/** What another instance asked the job's owner to do; applied between batches. */
export interface ControlRequest {
  op: 'pause' | 'resume' | 'cancel' | 'rate';
  rate?: number | null;
}

export interface BulkRow {
  id: string;
  brokerId: string;
  action: BulkAction;
  filter: BulkFilter;
  state: BulkState;
  rate: number | null;
  batchSize: number;
  expectedCount: number | null;
  snapshotAt: string;
  capped: boolean;
  searchedNewest: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: { code: string; message: string } | null;
  /** Where a failed job stopped (resume starts there again, on the console that ran it). */
  stoppedAt: { index: number; id: string | null } | null;
  /** Ids whose outcome is recorded (the next batch starts here). */
  done: number;
  /** Ids handed to the broker in the batch now in flight (0 between batches). */
  inFlight: number;
  total: number;
  succeeded: number;
  succeededSample: string[];
  skipped: number;
  failed: number;
  batches: number;
  auditId: string | null;
  /** The console instance running it; null when none does. */
  owner: string | null;
  /** The owner's last sign of life (ms since the epoch). */
  heartbeatMs: number;
  control: ControlRequest | null;
  interrupted: Interruption | null;
}

export interface BulkStore {
  /** Creates the job with its pinned ids. */
  create(row: BulkRow, ids: readonly string[]): Promise<void>;
  /** Writes progress and state (never the ids); `outcomes` are skipped/failed ones to append. */
  save(row: BulkRow, outcomes?: ActionOutcome[]): Promise<void>;
  get(id: string): Promise<BulkRow | null>;
  ids(id: string): Promise<string[]>;
  /** Skipped and failed outcomes in the order they happened, up to `limit`. */
  outcomes(id: string, limit: number): Promise<ActionOutcome[]>;
  list(brokerId: string, limit: number): Promise<BulkRow[]>;
  /** Makes `owner` the job's owner if its owner is still `expect` (and its heartbeat
   *  `heartbeatMs`): true when this caller won, false when another console did first. */
  claim(id: string, expect: { owner: string | null; heartbeatMs: number }, owner: string, nowMs: number): Promise<boolean>;
  /** Asks the owner for `req`; replaces an earlier request not yet applied. */
  request(id: string, req: ControlRequest | null): Promise<void>;
  /** Deletes finished jobs older than `beforeMs` and queued ones older than `queuedBeforeMs`. */
  prune(beforeMs: number, queuedBeforeMs: number): Promise<void>;
  close(): Promise<void>;
}
