import { randomUUID } from 'node:crypto';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import { OutcomeLog } from './outcomes';
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
}

/**
 * One bulk action over a pinned snapshot of ids, run in batches by an in-process loop.
 * Pause and cancel take effect between batches (a batch handed to the broker always finishes,
 * so its outcomes are known); a paced job also wakes from its wait to obey them at once.
 */
export class BulkJob {
  readonly id = randomUUID();
  readonly brokerId: string;
  readonly action: BulkAction;
  readonly filter: BulkFilter;
  readonly createdAt = new Date();
  readonly log = new OutcomeLog();
  state: BulkState = 'queued';
  rate: number | null;
  startedAt: Date | null = null;
  finishedAt: Date | null = null;
  error: { code: string; message: string } | null = null;
  /** Resolves when the loop has stopped (done, failed or cancelled); for tests and shutdown. */
  finished: Promise<void> = Promise.resolve();

  private readonly snapshot: Snapshot;
  private readonly backend: BulkBackend;
  private readonly batchSize: number;
  private readonly expectedCount: number | null;
  private next = 0;
  private wake: (() => void) | null = null;

  constructor(init: BulkJobInit) {
    this.brokerId = init.brokerId;
    this.action = init.action;
    this.filter = init.filter;
    this.snapshot = init.snapshot;
    this.backend = init.backend;
    this.batchSize = init.batchSize ?? BATCH_SIZE;
    this.expectedCount = init.expectedCount ?? null;
    this.rate = init.rate ?? null;
  }

  get total(): number {
    return this.snapshot.ids.length;
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

  pause(): void {
    if (this.state !== 'running') throw new ConsoleError('Conflict', `job is ${this.state}; only a running job can pause`);
    this.state = 'paused';
  }

  resume(): void {
    if (this.state !== 'paused') throw new ConsoleError('Conflict', `job is ${this.state}; only a paused job can resume`);
    this.state = 'running';
    this.poke();
  }

  /** Stops before the next batch; ids not reached stay as they are. */
  cancel(): void {
    if (FINISHED.has(this.state)) throw new ConsoleError('Conflict', `job is already ${this.state}`);
    const wasQueued = this.state === 'queued';
    this.state = 'cancelled';
    if (wasQueued) this.finishedAt = new Date();
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
  private wait(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === null ? undefined : setTimeout(() => this.poke(), ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** A paced job sends about one batch a second, so the rate holds without long bursts. */
  private nextBatchSize(): number {
    if (this.rate === null) return this.batchSize;
    return Math.max(1, Math.min(this.batchSize, Math.floor(this.rate)));
  }

  /** The whole snapshot in one call: pause holds the next letter, cancel aborts, the rate is read as it goes. */
  private async loopWhole(actAll: NonNullable<BulkBackend['actAll']>): Promise<void> {
    const ids = this.snapshot.ids;
    const abort = new AbortController();
    const seen = new Set<string>();
    const job = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the getter reads the job's live rate
    try {
      const result = await actAll(ids, {
        ...(this.filter.queue ? { queue: this.filter.queue } : {}),
        signal: abort.signal,
        get rate() {
          return job.rate ?? undefined;
        },
        gate: async () => {
          while (this.state === 'paused') await this.wait(null);
          if (this.state === 'cancelled') abort.abort();
        },
        onProgress: (_done, _total, o) => {
          seen.add(o.id);
          this.log.add(o);
        },
      });
      // Ids not reached: skipped or failed when the job ran to its end; left as they are when cancelled.
      if (this.state !== 'cancelled')
        this.log.addBatch(
          ids.filter((id) => !seen.has(id)),
          result,
        );
      this.log.batches = 1;
      this.next = ids.length;
      if (this.state === 'running' || this.state === 'paused') this.state = 'done';
    } catch (e) {
      this.fail(
        ids.filter((id) => !seen.has(id)),
        e,
      );
    } finally {
      this.finishedAt = new Date();
    }
  }

  private async loop(): Promise<void> {
    if (this.backend.actAll) return this.loopWhole(this.backend.actAll.bind(this.backend));
    const ids = this.snapshot.ids;
    try {
      while (this.next < ids.length) {
        while (this.state === 'paused') await this.wait(null);
        if (this.state === 'cancelled') return;
        const batch = ids.slice(this.next, this.next + this.nextBatchSize());
        const began = Date.now();
        this.next += batch.length;
        try {
          this.log.addBatch(batch, await this.backend.act(batch));
        } catch (e) {
          // No automatic retry: the remaining ids stay untouched and the operator decides.
          this.fail(batch, e);
          return;
        }
        if (this.rate !== null && this.next < ids.length) {
          const owed = (batch.length / this.rate) * 1000 - (Date.now() - began);
          if (owed > 0 && this.state === 'running') await this.wait(owed);
        }
      }
      if (this.state === 'running' || this.state === 'paused') this.state = 'done';
    } finally {
      this.finishedAt = new Date();
    }
  }

  private fail(batch: string[], e: unknown): void {
    const code = isConsoleError(e) ? e.code : 'BrokerUnavailable';
    const message = e instanceof Error ? e.message : String(e);
    const maybe = code === 'BrokerTimeout' ? 'the broker may still have applied it; check before retrying' : 'not done';
    this.log.failBatch(batch, `the batch failed as a whole (${code}: ${message}); ${maybe}`);
    this.error = { code, message };
    this.state = 'failed';
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
      succeededSample: [...l.succeededSample],
      skippedOutcomes: l.skipped.slice(0, limit),
      failedOutcomes: l.failed.slice(0, limit),
      outcomesTruncated: cut,
    };
  }
}
