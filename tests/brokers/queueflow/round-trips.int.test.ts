// Round trips between the console's QueueFlow adapter and the REAL system: server 0.6.0
// (scripts/queueflow.sh) with the REAL Python client 0.5.0 as producer (create_job) and worker
// (run_worker, tests/queueflow/qf_worker.py). Each dead-letter reason shows in the console as
// the server reports it; a replayed letter's new job runs in the worker; a second replay says
// already replayed; a cancelled job never runs; a job created in the console runs with its payload.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery, ZEnqueueRequest, type DeadSummary } from '@/lib/brokers/schema';
import { call, produce, PyWorker, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';

const s = startQueueflow();
const run = s ? describe : describe.skip;
const Q = uniqueQueue('qfrt');
let worker: PyWorker;

const adapter = () =>
  createQueueflowAdapter({ id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token: s!.token } }, adapterContext());
const logs = () => `worker:\n${worker.log.slice(-2000)}\nserver:\n${s!.log().slice(-1500)}`;
const status = async (id: string) => (await call<{ status: string }>(s!, 'GET', `/api/v1/jobs/${id}`)).body.status;
const finished = (id: string, ms = 40_000) =>
  until(`job ${id} to finish`, async () => ['completed', 'failed', 'cancelled'].includes(await status(id)) && (await status(id)), ms, logs);
const letterOf = (jobId: string, queue = Q) =>
  until(
    `the dead letter of ${jobId}`,
    async () => {
      const all = await adapter().listDead(ZDeadListQuery.parse({ queue, limit: 500 }));
      const d = await Promise.all(all.items.map(async (x) => ({ x, job: (await adapter().getDead(x.id))?.payload.id })));
      return d.find((e) => e.job === jobId)?.x;
    },
    40_000,
    logs,
  ) as Promise<DeadSummary>;

beforeAll(() => {
  if (!s) return;
  worker = new PyWorker(s, Q);
  worker.start();
});
afterAll(async () => {
  await worker?.stop();
  s?.stop();
});

run('QueueFlow round trips: the console and the real Python client 0.5.0', () => {
  it('shows each dead-letter reason as the server reports it', async () => {
    const [fatal, flaky, nohandler] = produce(s!, [
      { task: 'qf.fatal', queue: Q, payload: { n: 1 } },
      { task: 'qf.flaky', queue: Q, payload: {}, max_retries: 1, retry_delay_secs: 1, retry_backoff: 'fixed' },
      { task: 'qf.nohandler', queue: Q, payload: {} },
    ]);
    // The server's own Rust workers: a task with no builtin handler.
    const [inproc] = produce(s!, [{ task: 'qf.not-builtin', queue: s!.inprocQueue, payload: {} }]);
    const seen = await Promise.all([
      letterOf(fatal!.id),
      letterOf(flaky!.id),
      letterOf(nohandler!.id),
      letterOf(inproc!.id, s!.inprocQueue),
    ]);
    expect(seen.map((d) => [d.cause, d.summary])).toEqual([
      ['non_retryable', 'refused: payload n=1 is not valid'],
      ['max_attempts_exceeded', 'still failing on delivery 2'],
      ['non_retryable', "no worker handler for task 'qf.nohandler'"],
      ['handler_not_found', "no handler registered for task 'qf.not-builtin'"],
    ]);
    expect(worker.runs(flaky!.id).map((r) => r.outcome)).toEqual(['flaky', 'flaky']);
  });

  it('replays a letter whose job then runs in the real worker; a second replay says already replayed', async () => {
    const [job] = produce(s!, [{ task: 'qf.fatal', queue: Q, payload: { n: 2 } }]);
    const letter = await letterOf(job!.id);
    fs.writeFileSync(path.join(worker.out, 'fixed-2'), ''); // "deploy the fix"
    const a = adapter();
    const r = await a.replayDead([letter.id]);
    const replay = r.succeeded[0]?.taskId;
    expect(replay).toBeTruthy();
    expect(await finished(replay!)).toBe('completed');
    expect(worker.runs(replay!)).toEqual([expect.objectContaining({ task: 'qf.fatal', outcome: 'ok', payload: { n: 2 } })]);
    const again = await a.replayDead([letter.id]);
    expect(again.failed).toEqual([
      { id: letter.id, outcome: 'already', message: `already replayed as job ${replay}; QueueFlow replays a letter once`, taskId: replay },
    ]);
    expect((await a.getDead(letter.id))?.replayed?.taskId).toBe(replay);
    expect(await a.getResult(replay!)).toMatchObject({
      status: 'COMPLETED',
      record: { t: 'dict', entries: [['fixed', { t: 'int', v: '2' }]] },
    });
  });

  // Both are due 12 s later (a slow machine still cancels before then); the control proves the
  // worker was leasing from the queue when the cancelled one came due.
  it('cancels a waiting job, which then never runs', async () => {
    const [soon, control] = produce(s!, [
      { task: 'qf.ok', queue: Q, payload: { c: 1 }, run_at: new Date(Date.now() + 12_000).toISOString() },
      { task: 'qf.ok', queue: Q, payload: { c: 2 }, run_at: new Date(Date.now() + 12_000).toISOString() },
    ]);
    const r = await adapter().revoke([soon!.id]);
    expect(r.succeeded.map((o) => o.id)).toEqual([soon!.id]);
    expect(await finished(control!.id)).toBe('completed');
    await new Promise((res) => setTimeout(res, 2000));
    expect(await status(soon!.id)).toBe('cancelled');
    expect(worker.runs(soon!.id)).toEqual([]);
    expect(worker.runs(control!.id).map((x) => x.outcome)).toEqual(['ok']);
  });

  it('creates a job in the console that the real worker runs with its payload', async () => {
    const made = await adapter().enqueue(
      ZEnqueueRequest.parse({ task: 'qf.ok', queue: Q, fields: { payload: '{"order": 99, "items": ["a", "b"]}' } }),
    );
    expect(await finished(made.id)).toBe('completed');
    expect(worker.runs(made.id)).toEqual([
      expect.objectContaining({ task: 'qf.ok', outcome: 'ok', payload: { order: 99, items: ['a', 'b'] } }),
    ]);
    expect((await adapter().getResult(made.id))?.status).toBe('COMPLETED');
  });
});
