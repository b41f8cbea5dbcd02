// What the console lends an adapter: the few of its own services an adapter's work needs (a
// pause lease on a queue, an audit entry for work done on nobody's request), as interfaces of
// the contract. The service side builds one context per process (lib/brokers/systems-context.ts)
// and hands it to every factory, so an adapter never imports lib/leases or lib/audit: the
// import graph stays one-way (services -> contract <- adapters) and a test gives an adapter an
// in-memory lease store and an audit sink without touching the console's state store.
// Types only.

/**
 * A console's hold on a queue it paused for a moment (an edit-replay that must keep workers off
 * the queue while it swaps jobs), in the console's own state store, so every console process
 * sharing that store sees it. One per (broker, queue); a hold whose deadline passed belongs to
 * a holder that is gone, and whoever takes it over recovers the queue. Times are epoch ms.
 */
export interface PauseLease {
  broker: string;
  queue: string;
  /** The process holding it (host, pid and a random part). */
  owner: string;
  /** When it was taken (ISO): "paused by the console since …". */
  startedAt: string;
  deadlineMs: number;
  /** The console paused the queue itself: it was not paused before. Only then may recovery resume it. */
  pausedByConsole: boolean;
  /** The system's own notes on the work in progress (what recovery needs to finish or undo it). */
  detail: Record<string, unknown>;
}

export interface LeasePatch {
  deadlineMs: number;
  pausedByConsole?: boolean;
  detail?: Record<string, unknown>;
}

export interface PauseLeaseStore {
  /** Takes the hold unless (broker, queue) has one already: true when this one is now held. */
  acquire(lease: PauseLease): Promise<boolean>;
  /** Renews (and updates) the owner's hold; false when it is no longer that owner's. */
  update(broker: string, queue: string, owner: string, patch: LeasePatch): Promise<boolean>;
  /** Takes over `from`'s hold for a recovery, only if its deadline is before `nowMs`: true when it is now `to`'s. */
  takeOver(broker: string, queue: string, from: string, to: string, nowMs: number, deadlineMs: number): Promise<boolean>;
  release(broker: string, queue: string, owner: string): Promise<void>;
  get(broker: string, queue: string): Promise<PauseLease | null>;
  /** The broker's holds, oldest first (at most `limit`). */
  list(broker: string, limit?: number): Promise<PauseLease[]>;
  close(): Promise<void>;
}

export interface LeaseSettings {
  store: () => Promise<PauseLeaseStore>;
  /** This process in the lease (host, pid and a random part): one id per console process. */
  owner: string;
  /** How long a hold lasts without a renewal: a dead holder's queue is recovered this long after its last renewal. */
  ttlMs: number;
  /** How long a second taker waits for a live hold before it is refused. */
  waitMs: number;
  pollMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export interface HeldLease {
  readonly lease: PauseLease;
  /** Another process took the hold over (this one stalled past its deadline): leave the work to it. */
  readonly lost: boolean;
  /** Renews the hold and records progress; throws (Conflict) when another process took it over. */
  mark(patch?: { pausedByConsole?: boolean; detail?: Record<string, unknown> }): Promise<void>;
  /** Gives the hold up: the work is finished (or deliberately left, not for recovery to undo). */
  release(): Promise<void>;
  /** Stops renewing and leaves the row: recovery finishes the work once the deadline passes. */
  abandon(): void;
}

export type Taken = { held: HeldLease } | { busy: PauseLease };

/** The pause leases of this console process (lib/leases/hold.ts implements them). */
export interface QueueLeases extends LeaseSettings {
  /**
   * Takes the hold on (broker, queue), waiting up to `waitMs` for a live one to go; a hold
   * whose deadline passed is handed to `recover` (which takes it over, finishes or undoes its
   * work and deletes it) before trying again.
   */
  take(broker: string, queue: string, detail: Record<string, unknown>, recover: (stale: PauseLease) => Promise<unknown>): Promise<Taken>;
  /** The stale holds of a broker (deadline before now), oldest first, at most `max`. */
  stale(broker: string, max: number): Promise<PauseLease[]>;
}

/**
 * An audit entry for work an adapter did on nobody's request (a recovery): recorded as done by
 * the console itself (`who: console`, `via: recovery`), finished when written.
 */
export interface AdapterAuditRecord {
  action: string;
  broker: string;
  queue: string | null;
  ids: string[];
  outcome: 'done' | 'partial' | 'failed';
  message: string;
  results: Array<{ id: string; outcome: 'ok' | 'error'; message: string }>;
  details: Record<string, unknown>;
}

/** Writes one entry to the audit trail; rejects when the trail cannot be written. */
export type AuditWriter = (record: AdapterAuditRecord) => Promise<void>;

/** Handed to every adapter factory; an adapter takes what it needs and ignores the rest. */
export interface AdapterContext {
  leases: QueueLeases;
  audit: AuditWriter;
}
