import { isConsoleError } from '@/lib/brokers/errors';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { redactSecrets } from '@/lib/text/secrets';
import { FINISHED, JobState } from './job-state';
import { okOf, type ActedItem } from './outcomes';
import { OwnershipLost, type ControlRequest } from './store';
import type { BulkBackend } from './snapshot';

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
 * Its state and the operator's controls are JobState's (./job-state.ts).
 */
export class BulkJob extends JobState {
  /** Who started (or last resumed) it here: a move's journal names them. */
  actor: string | null = null;
  hooks: JobHooks | null = null;
  /** Hears the ids the broker took (`ok`), with their place in the snapshot, after each batch
   *  (a one-pass job: every POLL_MS): the job's campaign grows as it runs (lib/bulk/follow.ts).
   *  It must not throw; the job does not wait on it beyond the call. */
  onActed: ((items: ActedItem[]) => Promise<void>) | null = null;
  /** This console lost the job's lease (it stalled past it, and another console may have taken
   *  the job over): it sends nothing more and writes nothing; the store's row is the job now. */
  lost = false;
  /** Its last save was of a finished state, which gave the lease back. */
  private released = false;

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

  protected async loop(): Promise<void> {
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
}
