import { randomUUID } from 'node:crypto';
import { ConsoleError } from '@/lib/brokers/errors';
import { OutcomeLog } from './outcomes';
import type { ControlRequest } from './store';
import { BATCH_SIZE, type BulkAction, type BulkFilter, type BulkJobView, type BulkState } from './schema';
import type { BulkBackend, Snapshot } from './snapshot';

/** Lists in a view are cut here (counts stay exact); `view(Infinity)` gives everything. */
export const VIEW_OUTCOMES = 1_000;

const ACTIVE: ReadonlySet<BulkState> = new Set<BulkState>(['running', 'paused']);
export const FINISHED: ReadonlySet<BulkState> = new Set<BulkState>(['cancelled', 'done', 'failed']);

export interface BulkJobInit {
  brokerId: string;
  action: BulkAction;
  filter: BulkFilter;
  snapshot: Snapshot;
  backend: BulkBackend;
  expectedCount?: number;
  rate?: number | null;
  batchSize?: number;
  /** A job read back from the state store: its id, times and where it stopped. */
  restored?: {
    id: string;
    createdAt: Date;
    startedAt: Date | null;
    state: BulkState;
    done: number;
    auditId: string | null;
    log: Parameters<OutcomeLog['restore']>[0];
  };
}

/**
 * A bulk job's state and what an operator can do to it (start, pause, resume, cancel, rate),
 * and its view. How its batches run is `BulkJob`'s (./runner.ts): these controls only change
 * the state and wake the loop, which obeys them between batches.
 */
export abstract class JobState {
  readonly id: string;
  readonly brokerId: string;
  readonly action: BulkAction;
  readonly filter: BulkFilter;
  readonly createdAt: Date;
  readonly log = new OutcomeLog();
  state: BulkState = 'queued';
  rate: number | null;
  startedAt: Date | null = null;
  finishedAt: Date | null = null;
  error: { code: string; message: string } | null = null;
  /** Resolves when the loop has stopped (done, failed or cancelled); for tests and shutdown. */
  finished: Promise<void> = Promise.resolve();
  /** The audit entry of its start, completed when it stops (by whichever console runs it then). */
  auditId: string | null = null;
  /** Ids handed to the broker in the batch now in flight. */
  inFlight = 0;
  /** Its batch loop runs in this process (false for a job read back and not yet continued). */
  looping = false;

  protected readonly snapshot: Snapshot;
  protected readonly backend: BulkBackend;
  protected readonly batchSize: number;
  private readonly expectedCount: number | null;
  protected next = 0;
  /** The batch that stopped a failed job (where `resume` starts again). */
  protected failedBatch: { start: number; ids: string[] } | null = null;
  private wake: (() => void) | null = null;

  constructor(init: BulkJobInit) {
    const r = init.restored;
    this.id = r?.id ?? randomUUID();
    this.createdAt = r?.createdAt ?? new Date();
    if (r) {
      this.state = r.state;
      this.startedAt = r.startedAt;
      this.next = r.done;
      this.auditId = r.auditId;
      this.log.restore(r.log);
    }
    this.brokerId = init.brokerId;
    this.action = init.action;
    this.filter = init.filter;
    this.snapshot = init.snapshot;
    this.backend = init.backend;
    this.batchSize = init.batchSize ?? BATCH_SIZE;
    this.expectedCount = init.expectedCount ?? null;
    this.rate = init.rate ?? null;
  }

  /** Runs the batches until the job stops (./runner.ts). */
  protected abstract loop(): Promise<void>;

  get total(): number {
    return this.snapshot.ids.length;
  }

  /** Ids whose outcome is recorded: the next batch starts here. */
  get done(): number {
    return this.next - this.inFlight;
  }

  get snapshotInfo(): Omit<Snapshot, 'ids'> {
    return { at: this.snapshot.at, capped: this.snapshot.capped, searchedNewest: this.snapshot.searchedNewest };
  }

  get expected(): number | null {
    return this.expectedCount;
  }

  get batch(): number {
    return this.batchSize;
  }

  /** The pinned ids in the order batches take them. */
  snapshotIds(): readonly string[] {
    return this.snapshot.ids;
  }

  get active(): boolean {
    return ACTIVE.has(this.state);
  }

  start(): void {
    if (this.state !== 'queued') throw new ConsoleError('Conflict', `job is ${this.state}; only a queued job can start`);
    this.state = 'running';
    this.startedAt = new Date();
    this.finished = this.loop();
  }

  /** Runs a job taken over from a console that stopped (state paused or running). */
  continueRestored(): void {
    if (!ACTIVE.has(this.state)) throw new ConsoleError('Conflict', `job is ${this.state}; only a paused or running job continues`);
    this.finished = this.loop();
  }

  /** Applies what another console asked for; a request that no longer fits is dropped. */
  apply(req: ControlRequest): void {
    try {
      if (req.op === 'pause' && this.state === 'running') this.pause();
      else if (req.op === 'resume' && this.state === 'paused') this.resume();
      else if (req.op === 'cancel' && !FINISHED.has(this.state)) this.cancel();
      else if (req.op === 'rate' && req.rate !== undefined && !FINISHED.has(this.state)) this.setRate(req.rate);
    } catch {
      // A state that changed meanwhile: nothing to do.
    }
  }

  pause(): void {
    if (this.state !== 'running') throw new ConsoleError('Conflict', `job is ${this.state}; only a running job can pause`);
    this.state = 'paused';
  }

  /**
   * Continues a paused job, or a failed one from the batch that failed: that batch is tried
   * again (its outcomes replace the failure), then the ids not reached. Safe because every
   * adapter re-checks each id (a letter already replayed is `missing`, a claimed task `running`).
   */
  resume(): void {
    if (this.state === 'failed' && this.failedBatch) {
      this.log.forgetBatch(this.failedBatch.ids);
      this.next = this.failedBatch.start;
      this.failedBatch = null;
      this.error = null;
      this.finishedAt = null;
      this.state = 'running';
      this.finished = this.loop();
      return;
    }
    if (this.state !== 'paused') throw new ConsoleError('Conflict', `job is ${this.state}; only a paused or failed job can resume`);
    this.state = 'running';
    this.poke();
  }

  /** Stops before the next batch; ids not reached stay as they are. */
  cancel(): void {
    if (FINISHED.has(this.state)) throw new ConsoleError('Conflict', `job is already ${this.state}`);
    this.state = 'cancelled';
    // Without a loop here (queued, or read back from the state store) it stops now.
    if (!this.looping) this.finishedAt = new Date();
    this.poke();
  }

  setRate(rate: number | null): void {
    if (FINISHED.has(this.state)) throw new ConsoleError('Conflict', `job is already ${this.state}`);
    this.rate = rate;
    this.poke();
  }

  private poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Waits up to `ms` (forever when null), returning early on resume/cancel/rate change. */
  protected wait(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === null ? undefined : setTimeout(() => this.poke(), ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  view(limit = VIEW_OUTCOMES): BulkJobView {
    const l = this.log;
    const cut = l.skipped.length > limit || l.failed.length > limit;
    return {
      id: this.id,
      brokerId: this.brokerId,
      action: this.action,
      filter: this.filter,
      state: this.state,
      snapshotAt: this.snapshot.at.toISOString(),
      capped: this.snapshot.capped,
      searchedNewest: this.snapshot.searchedNewest,
      expectedCount: this.expectedCount,
      rate: this.rate,
      batchSize: this.batchSize,
      progress: l.progress(this.total),
      startedAt: this.startedAt?.toISOString() ?? null,
      finishedAt: this.finishedAt?.toISOString() ?? null,
      error: this.error,
      stoppedAt: this.failedBatch ? { index: this.failedBatch.start, id: this.failedBatch.ids[0] ?? null } : null,
      succeededSample: [...l.succeededSample],
      skippedOutcomes: l.skipped.slice(0, limit),
      failedOutcomes: l.failed.slice(0, limit),
      outcomesTruncated: cut,
    };
  }
}
