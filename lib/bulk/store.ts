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
  /** The console instance holding the job's lease (`bulk/<id>`); null when none does. Saving a
   *  row with null releases the saver's lease; any other value renews it. */
  owner: string | null;
  /** The owner's last sign of life (ms since the epoch): its lease's expiry less OWNER_GONE_MS. */
  heartbeatMs: number;
  control: ControlRequest | null;
  interrupted: Interruption | null;
}

/** A console owns a job it runs while it renews its lease this often... */
export const HEARTBEAT_MS = 5_000;
/** ...and is taken for gone once the lease is this old (a restart, a crash): the lease's length. */
export const OWNER_GONE_MS = 30_000;

/** The job's lease in `console_leases`: the one record of which console runs it. */
export const leaseName = (jobId: string) => `bulk/${jobId}`;

/** `save` by a console that no longer holds the job's lease: nothing was written; it must stop. */
export class OwnershipLost extends Error {
  constructor(jobId: string) {
    super(`this console no longer holds bulk job ${jobId}: another console took it over, or its lease ran out`);
    this.name = 'OwnershipLost';
  }
}

export interface BulkStore {
  /** The console process this store writes as (the holder of its jobs' leases). */
  readonly me: string;
  /** Creates the job (no owner yet: whoever starts it takes its lease) with its pinned ids. */
  create(row: BulkRow, ids: readonly string[]): Promise<void>;
  /**
   * Writes progress and state (never the ids); `outcomes` are skipped/failed ones to append.
   * Only while `me` holds the job's live lease, checked in the same transaction as the writes;
   * renews the lease, or releases it when `row.owner` is null. Throws OwnershipLost (and writes
   * nothing) otherwise.
   */
  save(row: BulkRow, outcomes?: ActionOutcome[]): Promise<void>;
  get(id: string): Promise<BulkRow | null>;
  ids(id: string): Promise<string[]>;
  /** Skipped and failed outcomes in the order they happened, up to `limit`. */
  outcomes(id: string, limit: number): Promise<ActionOutcome[]>;
  list(brokerId: string, limit: number): Promise<BulkRow[]>;
  /** Takes the job's lease for `me` when it is free, already `me`'s, or expired: true when this
   *  caller holds it now (of several consoles exactly one wins). */
  claim(id: string): Promise<boolean>;
  /** Gives `me`'s lease on the job back (nothing when it is not `me`'s); the row is not written. */
  release(id: string): Promise<void>;
  /** Asks the owner for `req`; replaces an earlier request not yet applied. Clearing it (null)
   *  is the owner's: only while `me` holds the lease. */
  request(id: string, req: ControlRequest | null): Promise<void>;
  /** Deletes finished jobs older than `beforeMs` and queued ones older than `queuedBeforeMs`. */
  prune(beforeMs: number, queuedBeforeMs: number): Promise<void>;
  close(): Promise<void>;
}
