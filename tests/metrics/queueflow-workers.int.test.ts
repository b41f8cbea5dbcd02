// /metrics against the REAL QueueFlow server while the real Python client's worker leases a
// job: QueueFlow keeps no worker registry, so the console exports no workers series for it
// (a 0 would fire PotatoqNoWorkers while its workers work), and the overview says null.
import { afterAll, describe, expect, it } from 'vitest';
import { produce, PyWorker, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';

const s = startQueueflow();
const workers: PyWorker[] = [];
afterAll(async () => {
  for (const w of workers) await w.stop();
  s?.stop();
}, 60_000);
const run = s ? describe : describe.skip;

if (s) process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'qf', kind: 'queueflow', url: s.url, token: s.token }]);
const { overview } = await import('@/lib/brokers/service');
const { takeSnapshot } = await import('@/lib/metrics/snapshot');
const { renderSnapshot } = await import('@/lib/metrics/render');

run('metrics of a QueueFlow broker (real server and worker)', () => {
  it('exports its queues but no workers series, and the overview reports workers as unknown', async () => {
    const q = uniqueQueue('mx_workers');
    const w = new PyWorker(s!, q, 30);
    workers.push(w);
    w.start();
    const [job] = produce(s!, [
      { task: 'qf.slow', queue: q },
      { task: 'qf.slow', queue: q },
    ]);
    await until(
      'the worker to lease a job',
      () => w.runs(job!.id).length > 0,
      30_000,
      () => w.log,
    );

    const o = await overview('qf');
    expect(o.workers).toBeNull();
    expect(o.capabilities.workers).toMatchObject({ on: false, why: expect.stringContaining('no worker registry') });

    const text = await renderSnapshot(await takeSnapshot());
    expect(text).toContain('potatoq_console_broker_up{broker="qf"} 1');
    expect(text).toMatch(new RegExp(`potatoq_console_queue_tasks\\{broker="qf",queue="${q}",state="[a-z]+"\\} \\d+`));
    expect(text).not.toMatch(/^potatoq_console_workers\{broker="qf"/m);
  }, 90_000);
});
