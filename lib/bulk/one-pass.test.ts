import { describe, expect, it } from 'vitest';
import { OnePassBackend, idsFrom, latch } from '@/tests/bulk/fake-backend';
import { BulkJob, type JobHooks } from './runner';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { takeSnapshot } from './snapshot';

async function jobOver(b: OnePassBackend, rate: number | null = null) {
  return new BulkJob({ brokerId: 'fake', action: 'replay', filter: { queue: 'q' }, snapshot: await takeSnapshot(b), backend: b, rate });
}

describe('a bulk job on a backend that does the snapshot in one pass', () => {
  it('hands it the whole snapshot in one call and records every outcome', async () => {
    const b = new OnePassBackend(idsFrom('d', 1800));
    const gone = 'd-000007';
    const job = await jobOver(b);
    b.rows.splice(b.rows.indexOf(gone), 1);
    job.start();
    await job.finished;
    expect(b.calls).toHaveLength(1);
    expect(b.calls[0]).toHaveLength(1800);
    expect(job.view().progress).toEqual({ total: 1800, processed: 1800, succeeded: 1799, skipped: 1, failed: 0, batches: 1 });
    expect(job.view().skippedOutcomes.map((o) => o.id)).toEqual([gone]);
    expect(job.state).toBe('done');
  });

  it('pauses before the next letter, reads the rate as it changes, and a cancel leaves the rest untouched', async () => {
    const b = new OnePassBackend(idsFrom('d', 50));
    const hold = latch();
    const hold2 = latch();
    b.beforeAct = async (_ids, n) => {
      if (n === 10) await hold.wait;
      if (n === 20) await hold2.wait;
    };
    const job = await jobOver(b, 100);
    job.start();
    await new Promise((r) => setTimeout(r, 20));
    job.pause();
    job.setRate(7);
    hold.open();
    await new Promise((r) => setTimeout(r, 30));
    expect(job.view().progress.processed).toBe(10); // the 10th was in flight, then the gate holds
    expect(b.rates.slice(0, 10).every((r) => r === 100)).toBe(true);
    job.resume();
    await new Promise((r) => setTimeout(r, 20));
    job.cancel();
    hold2.open();
    await job.finished;
    expect(b.rates[10]).toBe(7);
    const p = job.view().progress;
    expect(job.state).toBe('cancelled');
    expect(p.failed).toBe(0); // not reached: not counted as failed
    expect(p.processed).toBe(20); // the 20th was in flight when cancelled
    expect(b.rows).toHaveLength(30);
  });

  it('fails the ids not yet settled when the call throws, keeping those already done', async () => {
    const b = new OnePassBackend(idsFrom('d', 20));
    b.beforeAct = (_ids, n) => {
      if (n === 5) throw new Error('connection lost');
    };
    const job = await jobOver(b);
    job.start();
    await job.finished;
    expect(job.state).toBe('failed');
    expect(job.view().progress).toMatchObject({ succeeded: 4, failed: 16 });
  });

  it('reads and writes the state store at most every half second, not per letter, and stores every outcome not ok', async () => {
    const b = new OnePassBackend(idsFrom('d', 3000));
    const job = await jobOver(b);
    b.rows.splice(b.rows.indexOf('d-000100'), 1);
    b.beforeAct = async (_ids, n) => {
      if (n % 1000 === 0) await new Promise((r) => setTimeout(r, 600)); // two slow letters: two store rounds
    };
    let polls = 0;
    const stored: ActionOutcome[] = [];
    const hooks: JobHooks = {
      saved: async (_job, outcomes) => void stored.push(...outcomes),
      poll: async () => {
        polls++;
        return null;
      },
    };
    job.hooks = hooks;
    job.start();
    await job.finished;
    expect(job.view().progress).toMatchObject({ processed: 3000, succeeded: 2999, skipped: 1 });
    expect(polls).toBeGreaterThanOrEqual(1);
    expect(polls).toBeLessThanOrEqual(4);
    expect(stored.map((o) => o.id)).toEqual(['d-000100']);
  });

  it('takes its snapshot in one call where the backend lists every matching id at once', async () => {
    const b = new OnePassBackend(idsFrom('d', 20));
    let pages = 0;
    const paged = b.listPage.bind(b);
    b.listPage = async (c, l) => {
      pages++;
      return paged(c, l);
    };
    const withAll = Object.assign(b, { listAll: async (cap: number) => ({ ids: b.rows.slice(0, cap), capped: b.rows.length > cap }) });
    const s = await takeSnapshot(withAll, 15);
    expect(pages).toBe(0);
    expect(s).toMatchObject({ ids: b.rows.slice(0, 15), capped: true, searchedNewest: null });
  });
});
