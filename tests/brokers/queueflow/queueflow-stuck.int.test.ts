// Stuck-work diagnosis on the REAL QueueFlow server 0.6.0 (its own database) with the real
// Python client 0.5.0 as producer and worker: a worker killed while it holds a lease, a queue
// nobody leases from, and a scheduled job left overdue.
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnosis, StuckCheck } from '@/lib/brokers/schema';
import { produce, PyWorker, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';

const s = startQueueflow();
const workers: PyWorker[] = [];
afterAll(async () => {
  for (const w of workers) await w.stop();
  s?.stop();
}, 60_000);
const run = s ? describe : describe.skip;

const adapter = () =>
  createQueueflowAdapter({ id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token: s!.token } }, adapterContext());
const diagnose = (overdueSeconds = 120): Promise<Diagnosis> => adapter().diagnose!({ overdueSeconds, revoke: { on: true } });
const flagsOf = (d: Diagnosis, check: StuckCheck, queue: string) => d.flags.filter((f) => f.check === check && f.queue === queue);
const status = async (id: string) => (await adapter().getTask(id))?.state ?? (await adapter().getResult(id))?.status ?? null;

run('QueueFlow: stuck work with the real server and client', () => {
  it('flags a job whose worker stopped heartbeating as worker-lost once its lease expired, by id', async () => {
    const q = uniqueQueue('stk_lost');
    const w = new PyWorker(s!, q, 2);
    workers.push(w);
    w.start();
    const [job] = produce(s!, [{ task: 'qf.slow', queue: q, retry_delay_secs: 3600, max_retries: 3 }]);
    await until(
      'the worker to start the job',
      () => w.runs(job!.id).length > 0,
      30_000,
      () => w.log,
    );
    expect(flagsOf(await diagnose(), 'worker-lost', q)).toEqual([]);
    await w.kill();
    await until('QueueFlow to reclaim the expired lease', async () => (await status(job!.id)) === 'retrying', 30_000);
    const [flag] = flagsOf(await diagnose(), 'worker-lost', q);
    expect(flag).toMatchObject({ ids: [job!.id], count: 1, link: { page: 'task', id: job!.id } });
    expect(flag!.cause).toContain('lease expired');
    expect(flag!.cannot).toMatch(/never changes running/i);
  }, 90_000);

  it('flags a queue nobody leases from as no-consumer, and clears it once a worker takes its job', async () => {
    const q = uniqueQueue('stk_idle');
    const [job] = produce(s!, [{ task: 'qf.ok', queue: q }]);
    const [flag] = flagsOf(await diagnose(), 'no-consumer', q);
    expect(flag).toMatchObject({ count: 1, link: { page: 'queue', queue: q, state: 'pending' } });
    const w = new PyWorker(s!, q);
    workers.push(w);
    w.start();
    await until(
      'the job to run',
      () => w.runs(job!.id).length > 0,
      30_000,
      () => w.log,
    );
    await until('the flag to clear', async () => !flagsOf(await diagnose(), 'no-consumer', q).length, 20_000);
  }, 90_000);

  it('flags a scheduled job overdue past the threshold, and not before', async () => {
    const q = uniqueQueue('stk_late');
    // Far enough ahead that the job is created well before it (the Python producer starts slowly).
    const runAt = Date.now() + 8000;
    const [job] = produce(s!, [{ task: 'qf.ok', queue: q, run_at: new Date(runAt).toISOString() }]);
    expect(flagsOf(await diagnose(1), 'overdue', q)).toEqual([]);
    await new Promise((r) => setTimeout(r, runAt + 3000 - Date.now()));
    const [flag] = flagsOf(await diagnose(1), 'overdue', q);
    expect(flag).toMatchObject({ ids: [job!.id], count: 1, link: { page: 'task', id: job!.id } });
    expect(flag!.cause).toMatch(/no worker is leasing/);
    expect(flagsOf(await diagnose(3600), 'overdue', q)).toEqual([]);
  }, 60_000);
});
