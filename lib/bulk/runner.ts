import { randomUUID } from 'node:crypto';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { redactSecrets } from '@/lib/text/secrets';
import { okOf, OutcomeLog, type ActedItem } from './outcomes';
import { OwnershipLost, type ControlRequest } from './store';
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

/** How a job keeps the state store current and hears other consoles (lib/bulk/persist.ts). */
export interface JobHooks {
  /** After a state change or a batch (with that batch's outcomes other than ok). */
  saved(job: BulkJob, outcomes: ActionOutcome[]): Promise<void>;
  /** A control request another console instance left for this job, if any (then cleared). */
  poll(job: BulkJob): Promise<ControlRequest | null>;
}

/** While paused or pacing, how often a job looks for requests from other consoles. */
const POLL_MS = 500;

/**
 * One bulk action over a pinned snapshot of ids, run in batches by an in-process loop.
 * Pause and cancel take effect between batches (a batch handed to the broker always finishes,
 * so its outcomes are known); a paced job also wakes from its wait to obey them at once.
 */
export class BulkJob {
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
  /** Who started (or last resumed) it here: a move's journal names them. */
  actor: string | null = null;
  hooks: JobHooks | null = null;
  /** Hears the ids the broker took (`ok`), with their place in the snapshot, after each batch
   *  (a one-pass job: every POLL_MS): the job's campaign grows as it runs (lib/bulk/follow.ts).
   *  It must not throw; the job does not wait on it beyond the call. */
  onActed: ((items: ActedItem[]) => Promise<void>) | null = null;
  /** Its batch loop runs in this process (false for a job read back and not yet continued). */
  looping = false;
  /** This console lost the job's lease (it stalled past it, and another console may have taken
   *  the job over): it sends nothing more and writes nothing; the store's row is the job now. */
  lost = false;
  /** Its last save was of a finished state, which gave the lease back. */
  private released = false;

  private readonly snapshot: Snapshot;
  private readonly backend: BulkBackend;
  private readonly batchSize: number;
  private readonly expectedCount: number | null;
  private next = 0;
  /** The batch that stopped a failed job (where `resume` starts again). */
  private failedBatch: { start: number; ids: string[] } | null = null;
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

  /** Saves through the hooks: true once the store has it. A state store that fails is logged;
   *  a lost lease stops the job (`lost`: it sends no further batch), unless this job's own last
   *  save released it (a finished job: its later saves have nothing to add). */
  private async save(outcomes: ActionOutcome[] = []): Promise<boolean> {
    if (!this.hooks || this.lost) return !this.lost;
    try {
      await this.hooks.saved(this, outcomes);
      this.released = FINISHED.has(this.state);
      return true;
    } catch (e) {
      if (e instanceof OwnershipLost) {
        if (this.released && FINISHED.has(this.state)) return false;
        this.lost = true;
      }
      console.error(JSON.stringify({ event: 'console.bulk-store-error', jobId: this.id, message: String(e) }));
      return false;
    }
  }

  /** Saves until the store has it, every POLL_MS while it fails: a batch goes to the broker only
   *  once the job's row says it is in flight, under this console's lease. False when lost, or
   *  cancelled while the store did not answer (then nothing is sent). */
  private async saveBeforeSend(): Promise<boolean> {
    while (!(await this.save())) {
      if (this.lost) return false;
      if (this.state !== 'cancelled') await this.wait(POLL_MS);
      if (this.state === 'cancelled') return false;
    }
    return true;
  }

  private async listen(): Promise<void> {
    if (!this.hooks) return;
    const req = await this.hooks.poll(this).catch(() => null);
    if (req) this.apply(req);
  }

  /** Waits `ms` (forever when null), hearing other consoles every POLL_MS when hooked. */
  private async holdFor(ms: number | null): Promise<void> {
    if (!this.hooks) return this.wait(ms);
    const until = ms === null ? Infinity : Date.now() + ms;
    const was = this.state;
    while (Date.now() < until && this.state === was && !this.lost) {
      await this.wait(Math.min(POLL_MS, until - Date.now()));
      await this.listen();
      await this.save();
    }
  }

  /** The rest of the snapshot in one call: pause holds the next letter, cancel aborts, the rate is read as it goes. */
  private async loopWhole(actAll: NonNullable<BulkBackend['actAll']>): Promise<void> {
    const ids = this.snapshot.ids.slice(this.next);
    const abort = new AbortController();
    const seen = new Set<string>();
    const job = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the getter reads the job's live rate
    const notOk: ActionOutcome[] = [];
    const ok: ActedItem[] = [];
    const start = this.next;
    const place = this.onActed ? new Map(ids.map((id, i) => [id, start + i])) : null;
    let heard = Date.now();
    let told = Date.now();
    const tell = () => this.onActed?.(ok.splice(0));
    this.looping = true;
    try {
      if (this.hooks && !(await this.saveBeforeSend())) return;
      this.inFlight = ids.length;
      const result = await actAll(ids, {
        ...(this.filter.queue ? { queue: this.filter.queue } : {}),
        signal: abort.signal,
        get rate() {
          return job.rate ?? undefined;
        },
        // Called before every letter: the state store is read (requests from other consoles) and
        // written (progress, the outcomes not ok so far) at most every POLL_MS, not per letter.
        gate: async () => {
          if (ok.length && Date.now() - told >= POLL_MS) {
            told = Date.now();
            await tell();
          }
          if (this.hooks && Date.now() - heard >= POLL_MS) {
            heard = Date.now();
            await this.listen();
            await this.save(notOk.splice(0));
          }
          while (this.state === 'paused' && !this.lost) await this.holdFor(null);
          if (this.state === 'cancelled' || this.lost) abort.abort();
        },
        onProgress: (_done, _total, o) => {
          seen.add(o.id);
          this.log.add(o);
          if (o.outcome !== 'ok') notOk.push(o);
          else if (place?.has(o.id)) ok.push({ n: place.get(o.id)!, id: o.id });
        },
      });
      this.inFlight = 0;
      // A lost job writes nothing more to its row, but the ids the broker took were replayed.
      if (this.lost) return void (await tell());
      // Ids not reached: skipped or failed when the job ran to its end; left as they are when cancelled.
      const unseen = this.state !== 'cancelled' ? ids.filter((id) => !seen.has(id)) : [];
      const rest = unseen.length ? this.log.addBatch(unseen, result) : [];
      if (place) ok.push(...okOf(unseen, 0, rest).map((a) => ({ n: place.get(a.id)!, id: a.id })));
      await tell();
      this.log.batches = 1;
      this.next = this.snapshot.ids.length;
      if (this.hooks) await this.save([...notOk.splice(0), ...rest]);
      if (this.state === 'running' || this.state === 'paused') this.state = 'done';
    } catch (e) {
      this.inFlight = 0;
      await tell();
      const failed = this.fail(
        ids.filter((id) => !seen.has(id)),
        e,
      );
      if (this.hooks) await this.save([...notOk.splice(0), ...failed]);
    } finally {
      this.looping = false;
      this.finishedAt = new Date();
      if (this.hooks) await this.save();
    }
  }

  private async loop(): Promise<void> {
    if (this.backend.actAll) return this.loopWhole(this.backend.actAll.bind(this.backend));
    const ids = this.snapshot.ids;
    this.looping = true;
    try {
      // Without hooks (tests, no state store) nothing here yields before the first batch.
      if (this.hooks) await this.save();
      while (this.next < ids.length) {
        if (this.hooks) await this.listen();
        while (this.state === 'paused' && !this.lost) await this.holdFor(null);
        if (this.state === 'cancelled' || this.lost) return;
        const batch = ids.slice(this.next, this.next + this.nextBatchSize());
        const began = Date.now();
        this.next += batch.length;
        this.inFlight = batch.length;
        // The row says this batch is with the broker before it is sent, or it is not sent.
        if (this.hooks && !(await this.saveBeforeSend())) {
          if (!this.lost) [this.next, this.inFlight] = [this.next - batch.length, 0];
          return;
        }
        let notOk: ActionOutcome[];
        let done: ActionOutcome[];
        try {
          const r = await this.backend.act(batch, { id: this.id, auditId: this.auditId, by: this.actor });
          [notOk, done] = [this.log.addBatch(batch, r), r.succeeded];
        } catch (e) {
          // No automatic retry: the remaining ids stay untouched and the operator decides.
          this.inFlight = 0;
          this.failedBatch = { start: this.next - batch.length, ids: batch };
          const failed = this.fail(batch, e);
          if (this.hooks) await this.save(failed);
          return;
        }
        // The campaign hears the batch before the row says it is done: a console that stops in
        // between leaves ids the campaign has (appends are idempotent), never ids it lost.
        await this.onActed?.(okOf(batch, this.next - batch.length, notOk, done));
        this.inFlight = 0;
        if (this.hooks) await this.save(notOk);
        if (this.rate !== null && this.next < ids.length) {
          const owed = (batch.length / this.rate) * 1000 - (Date.now() - began);
          if (owed > 0 && this.state === 'running') await this.holdFor(owed);
        }
      }
      if (this.state === 'running' || this.state === 'paused') this.state = 'done';
    } finally {
      this.looping = false;
      this.finishedAt = new Date();
      if (this.hooks) await this.save();
    }
  }

  private fail(batch: string[], e: unknown): ActionOutcome[] {
    const code = isConsoleError(e) ? e.code : 'BrokerUnavailable';
    // A driver's text is shown on the job's page: the one redaction step first.
    const message = redactSecrets(e instanceof Error ? e.message : String(e));
    const maybe = code === 'BrokerTimeout' ? 'the broker may still have applied it; check before retrying' : 'not done';
    this.error = { code, message };
    this.state = 'failed';
    return this.log.failBatch(batch, `the batch failed as a whole (${code}: ${message}); ${maybe}`);
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
