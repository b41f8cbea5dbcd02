import { describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { FakeBackend, idsFrom, latch } from '@/tests/bulk/fake-backend';
import { BulkJob } from './runner';
import { OwnershipLost } from './store';
import { takeSnapshot } from './snapshot';

async function jobOver(b: FakeBackend, opts: { batchSize?: number; rate?: number; cap?: number } = {}) {
  const snapshot = await takeSnapshot(b, opts.cap);
  return new BulkJob({
    brokerId: 'fake',
    action: 'replay',
    filter: { queue: 'q' },
    snapshot,
    backend: b,
    batchSize: opts.batchSize ?? 500,
    rate: opts.rate ?? null,
  });
}

describe('bulk snapshot', () => {
  it('captures every matching id across keyset pages', async () => {
    const b = new FakeBackend(idsFrom('d', 1234));
    const s = await takeSnapshot(b);
    expect(s.ids).toEqual(idsFrom('d', 1234));
    expect(s.capped).toBe(false);
  });

  it('stops at the cap and says more matched', async () => {
    const s = await takeSnapshot(new FakeBackend(idsFrom('d', 1200)), 1000);
    expect(s.ids).toHaveLength(1000);
    expect(s.capped).toBe(true);
  });

  it('is not capped when exactly the cap matches', async () => {
    const s = await takeSnapshot(new FakeBackend(idsFrom('d', 1000)), 1000);
    expect(s).toMatchObject({ capped: false });
    expect(s.ids).toHaveLength(1000);
  });
});

describe('bulk runner', () => {
  it('acts on the snapshot in batches of the configured size and ends done', async () => {
    const b = new FakeBackend(idsFrom('d', 1200));
    const job = await jobOver(b);
    job.start();
    await job.finished;
    expect(b.calls.map((c) => c.length)).toEqual([500, 500, 200]);
    expect(job.view().state).toBe('done');
    expect(job.view().progress).toEqual({ total: 1200, processed: 1200, succeeded: 1200, skipped: 0, failed: 0, batches: 3 });
    expect(b.rows).toEqual([]);
  });

  it('never touches rows added after the snapshot', async () => {
    const b = new FakeBackend(idsFrom('d', 700));
    const job = await jobOver(b);
    b.rows.push(...idsFrom('late', 30));
    job.start();
    await job.finished;
    expect(b.rows).toEqual(idsFrom('late', 30));
    expect(b.calls.flat()).not.toContain('late-000000');
    expect(job.view().progress.succeeded).toBe(700);
  });

  it('reports rows removed or claimed before their batch as skipped, with the reason', async () => {
    const b = new FakeBackend(idsFrom('d', 1000));
    const job = await jobOver(b);
    b.beforeAct = (_batch, call) => {
      // Between the snapshot and the second batch, someone replays one and a worker claims another.
      if (call === 2) {
        b.rows.splice(b.rows.indexOf('d-000700'), 1);
        b.running.add('d-000800');
      }
    };
    job.start();
    await job.finished;
    const v = job.view();
    expect(v.progress).toMatchObject({ total: 1000, succeeded: 998, skipped: 2, failed: 0 });
    expect(v.skippedOutcomes).toEqual([
      { id: 'd-000700', outcome: 'missing', message: 'gone' },
      { id: 'd-000800', outcome: 'running', message: 'is running' },
    ]);
    expect(v.state).toBe('done');
  });

  it('pauses between batches and resumes where it stopped', async () => {
    const b = new FakeBackend(idsFrom('d', 1500));
    const job = await jobOver(b);
    const hold = latch();
    b.beforeAct = (_batch, call) => (call === 1 ? hold.wait : undefined);
    job.start();
    job.pause(); // the first batch is in flight: it finishes, the second waits
    hold.open();
    await new Promise((r) => setTimeout(r, 30));
    expect(job.view()).toMatchObject({ state: 'paused', progress: { processed: 500, batches: 1 } });
    expect(b.calls).toHaveLength(1);
    job.resume();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'done', progress: { processed: 1500, succeeded: 1500 } });
  });

  it('cancels between batches, leaving the rest untouched', async () => {
    const b = new FakeBackend(idsFrom('d', 1500));
    const job = await jobOver(b);
    const hold = latch();
    b.beforeAct = (_batch, call) => (call === 2 ? hold.wait : undefined);
    job.start();
    await new Promise((r) => setTimeout(r, 10));
    job.cancel(); // during batch 2: it completes, batch 3 never starts
    hold.open();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'cancelled', progress: { total: 1500, processed: 1000, succeeded: 1000 } });
    expect(b.rows).toEqual(idsFrom('d', 1500).slice(1000));
    expect(job.view().finishedAt).not.toBeNull();
  });

  it('cancels a paused job without another batch', async () => {
    const b = new FakeBackend(idsFrom('d', 1000));
    const job = await jobOver(b);
    const hold = latch();
    b.beforeAct = (_b, call) => (call === 1 ? hold.wait : undefined);
    job.start();
    job.pause();
    hold.open();
    await new Promise((r) => setTimeout(r, 10));
    job.cancel();
    await job.finished;
    expect(b.calls).toHaveLength(1);
    expect(job.state).toBe('cancelled');
  });

  it('paces batches to the chosen rate', async () => {
    const b = new FakeBackend(idsFrom('t', 6));
    const job = await jobOver(b, { rate: 20, batchSize: 2 });
    const t0 = Date.now();
    job.start();
    await job.finished;
    // 3 batches of 2 at 20/s: 100 ms owed after each of the first two, none after the last.
    expect(b.calls.map((c) => c.length)).toEqual([2, 2, 2]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('sends one batch per second of the rate when the rate is below the batch size', async () => {
    const b = new FakeBackend(idsFrom('d', 9));
    const job = await jobOver(b, { rate: 4 });
    const hold = latch();
    b.beforeAct = (_b, call) => (call === 2 ? hold.wait : undefined);
    job.start();
    await new Promise((r) => setTimeout(r, 50));
    expect(b.calls.map((c) => c.length)).toEqual([4]);
    job.setRate(1000); // wakes the wait: the next batch goes at once, larger
    await new Promise((r) => setTimeout(r, 20));
    hold.open();
    await job.finished;
    expect(b.calls.map((c) => c.length)).toEqual([4, 5]);
  });

  it('fails on a batch the broker refuses as a whole, reporting its ids and leaving the rest', async () => {
    const b = new FakeBackend(idsFrom('d', 1200));
    const job = await jobOver(b);
    b.beforeAct = (_b, call) => {
      if (call === 2) throw new ConsoleError('BrokerTimeout', 'replay took longer than 120s');
    };
    job.start();
    await job.finished;
    const v = job.view();
    expect(v).toMatchObject({
      state: 'failed',
      error: { code: 'BrokerTimeout' },
      progress: { succeeded: 500, failed: 500, processed: 1000 },
    });
    expect(v.failedOutcomes[0]).toMatchObject({
      id: 'd-000500',
      outcome: 'error',
      message: expect.stringContaining('may still have applied'),
    });
    expect(b.calls).toHaveLength(2);
  });

  it("shows a driver's error on the job without the credentials it quotes", async () => {
    const b = new FakeBackend(idsFrom('d', 10));
    const job = await jobOver(b);
    b.beforeAct = () => {
      throw new Error('connect to redis://u:p@Hunter2pw@cache:6379/0 failed');
    };
    job.start();
    await job.finished;
    const text = JSON.stringify(job.view());
    expect(text).toContain('redis://u:***@cache:6379/0');
    expect(text).not.toContain('Hunter2pw');
  });

  it('resumes a failed job from the batch that failed, says where it stopped, and ends done', async () => {
    const b = new FakeBackend(idsFrom('d', 1200));
    const job = await jobOver(b);
    b.beforeAct = (batch, call) => {
      // The broker applied half of batch 2 before the connection dropped.
      if (call === 2) {
        for (const id of batch.slice(0, 250)) b.rows.splice(b.rows.indexOf(id), 1);
        throw new ConsoleError('BrokerTimeout', 'connection lost');
      }
    };
    job.start();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'failed', stoppedAt: { index: 500, id: 'd-000500' } });
    job.resume();
    await job.finished;
    const v = job.view();
    // The half applied before the failure is now `missing` (skipped), nothing twice, nothing lost.
    expect(v).toMatchObject({
      state: 'done',
      error: null,
      stoppedAt: null,
      progress: { total: 1200, succeeded: 950, skipped: 250, failed: 0 },
    });
    expect(b.rows).toEqual([]);
    expect(() => job.resume()).toThrow(/done/);
  });

  it('keeps successes as a count plus a sample, failures in full', async () => {
    const b = new FakeBackend(idsFrom('d', 2000));
    const job = await jobOver(b);
    b.running.add('d-001999');
    job.start();
    await job.finished;
    const v = job.view();
    expect(v.succeededSample).toHaveLength(100);
    expect(v.progress.succeeded).toBe(1999);
    expect(v.skippedOutcomes.map((o) => o.id)).toEqual(['d-001999']);
  });

  it('refuses to start twice, and to pause or resume from the wrong state', async () => {
    const job = await jobOver(new FakeBackend(idsFrom('d', 3)));
    expect(() => job.pause()).toThrow(/queued/);
    job.start();
    expect(() => job.start()).toThrow(/running/);
    expect(() => job.resume()).toThrow(/running/);
    await job.finished;
    expect(() => job.cancel()).toThrow(/already done/);
  });
});

describe('a bulk job under its lease', () => {
  /** Hooks whose saves fail while `down` says so, recording what the store has. */
  function hooksOver(down: (call: number) => Error | null) {
    const log: string[] = [];
    let calls = 0;
    const hooks = {
      async saved(job: BulkJob) {
        const e = down(++calls);
        if (e) throw e;
        log.push(`saved ${job.state} inFlight=${job.inFlight}`);
      },
      poll: async () => null,
    };
    return { hooks, log };
  }

  it('sends a batch only once the store has the row saying it is in flight (a store that fails holds it)', async () => {
    const b = new FakeBackend(idsFrom('d', 4));
    const job = await jobOver(b, { batchSize: 2 });
    // The store does not answer for the 2nd to 4th saves (the first batch's in-flight save among them).
    const { hooks, log } = hooksOver((n) => (n >= 2 && n <= 4 ? new Error('connection refused') : null));
    job.hooks = hooks;
    b.beforeAct = (batch) => void log.push(`act ${batch.join(',')}`);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    job.start();
    await job.finished;
    expect(log).toEqual([
      'saved running inFlight=0',
      'saved running inFlight=2',
      'act d-000000,d-000001',
      'saved running inFlight=0',
      'saved running inFlight=2',
      'act d-000002,d-000003',
      'saved running inFlight=0',
      'saved done inFlight=0',
    ]);
    expect(b.calls).toHaveLength(2);
  });

  it('stops, sending nothing more, once its lease is lost', async () => {
    const b = new FakeBackend(idsFrom('d', 6));
    const job = await jobOver(b, { batchSize: 2 });
    // The second batch's in-flight save finds the lease gone.
    const { hooks } = hooksOver((n) => (n >= 4 ? new OwnershipLost(job.id) : null));
    job.hooks = hooks;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    job.start();
    await job.finished;
    expect(job.lost).toBe(true);
    expect(b.calls).toEqual([['d-000000', 'd-000001']]);
  });

  it('sends nothing when cancelled while the store does not answer', async () => {
    const b = new FakeBackend(idsFrom('d', 4));
    const job = await jobOver(b, { batchSize: 2 });
    let down = false;
    const { hooks } = hooksOver(() => (down ? new Error('connection refused') : null));
    job.hooks = hooks;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    b.beforeAct = () => void (down = true);
    job.start();
    await vi.waitFor(() => expect(b.calls).toHaveLength(1));
    job.cancel();
    down = false;
    await job.finished;
    expect(b.calls).toHaveLength(1);
    expect(job.view().progress).toMatchObject({ processed: 2 });
  });
});
