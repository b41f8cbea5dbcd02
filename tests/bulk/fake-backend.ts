import type { ActionOutcome, ActionResult } from '@/lib/brokers/schema';
import type { ReplayPace } from '@/lib/brokers/types';
import type { BulkBackend } from '@/lib/bulk/snapshot';

/**
 * An in-memory broker for the runner's unit tests: a list of rows paged by keyset like the
 * adapters, and an action that removes rows and reports `missing` for rows already gone.
 */
export class FakeBackend implements BulkBackend {
  readonly rows: string[];
  readonly calls: string[][] = [];
  /** Ids the fake reports as running (never changed), like a revoke racing a worker. */
  readonly running = new Set<string>();
  /** Runs before each batch is applied; a test can change rows or hold the batch here. */
  beforeAct: (batch: string[], call: number) => Promise<void> | void = () => undefined;

  constructor(ids: string[]) {
    this.rows = [...ids];
  }

  async listPage(cursor: string | undefined, limit: number) {
    const start = cursor === undefined ? 0 : this.rows.indexOf(cursor) + 1;
    const ids = this.rows.slice(start, start + limit);
    const more = start + limit < this.rows.length;
    return { ids, nextCursor: more ? ids[ids.length - 1]! : null };
  }

  async act(ids: string[]): Promise<ActionResult> {
    this.calls.push(ids);
    await this.beforeAct(ids, this.calls.length);
    const out: ActionOutcome[] = ids.map((id) => {
      if (this.running.has(id)) return { id, outcome: 'running', message: 'is running' };
      const i = this.rows.indexOf(id);
      if (i < 0) return { id, outcome: 'missing', message: 'gone' };
      this.rows.splice(i, 1);
      return { id, outcome: 'ok', message: 'done' };
    });
    return {
      action: 'replay',
      brokerId: 'fake',
      requested: ids.length,
      succeeded: out.filter((o) => o.outcome === 'ok'),
      failed: out.filter((o) => o.outcome !== 'ok'),
    };
  }
}

export const idsFrom = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(6, '0')}`);

/** A promise a test resolves by hand, to hold a batch in flight. */
export function latch(): { wait: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

/** A fake that does the whole snapshot in one call (like RabbitMQ's redrive), obeying the pace. */
export class OnePassBackend extends FakeBackend {
  readonly rates: Array<number | undefined> = [];
  actAll = async (ids: string[], pace: ReplayPace): Promise<ActionResult> => {
    this.calls.push(ids);
    const out: ActionOutcome[] = [];
    for (const id of ids) {
      await pace.gate?.();
      if (pace.signal?.aborted) break;
      this.rates.push(pace.rate);
      await this.beforeAct([id], out.length + 1);
      const i = this.rows.indexOf(id);
      const o: ActionOutcome = i < 0 ? { id, outcome: 'missing', message: 'gone' } : { id, outcome: 'ok', message: 'done' };
      if (i >= 0) this.rows.splice(i, 1);
      out.push(o);
      pace.onProgress?.(out.length, ids.length, o);
    }
    for (const id of ids.slice(out.length)) out.push({ id, outcome: 'error', message: 'cancelled before this letter was reached' });
    return {
      action: 'replay',
      brokerId: 'fake',
      requested: ids.length,
      succeeded: out.filter((o) => o.outcome === 'ok'),
      failed: out.filter((o) => o.outcome !== 'ok'),
    };
  };
}
