// The Workflows view's reads and retry against the REAL QueueFlow server 0.6.0, with workflows
// created by the REAL Python client 0.5.0 (WorkflowBuilder + create_workflow) and run by its
// real worker (run_worker, tests/queueflow/qf_worker.py): a chain, a fan-out with a join, an
// order whose `charge` step fails for good, and a 300-step run. Every retry is checked in the
// server too.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import { ZWorkflowListQuery, type WorkflowDetail } from '@/lib/brokers/workflow-schema';
import { call, PyWorker, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';
import { bigWorkflow, createWorkflows, shapes } from '@/tests/queueflow/workflows-support';

const s = startQueueflow();
const run = s ? describe : describe.skip;
const Q = uniqueQueue('qfwf');
const IDLE = uniqueQueue('qfwfidle');
const N = 9000 + Math.floor(Math.random() * 999);
let worker: PyWorker;
let ids: { chain: string; fanout: string; order: string };

const adapter = () =>
  createQueueflowAdapter({ id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token: s!.token } }, adapterContext());
const flows = () => adapter().workflows!;
const logs = () => `worker:\n${worker.log.slice(-2000)}\nserver:\n${s!.log().slice(-1500)}`;
const settled = (id: string, statuses: string[], ms = 100_000) => {
  // Where the run stood when the wait ended, each step with its job's runs on the worker: a
  // timeout says whether the run moved at all, and which step it waited on.
  let seen = 'never read';
  return until(
    `workflow ${id} to be ${statuses.join(' or ')}`,
    async () => {
      const d = await flows().get(id);
      if (d)
        seen = `${d.status}: ${d.steps.map((x) => `${x.name}=${x.status}${x.jobId ? ` runs ${JSON.stringify(worker.runs(x.jobId).map((r) => r.outcome))}` : ''}`).join(', ')}`;
      return d && statuses.includes(d.status) ? d : null;
    },
    ms,
    () => `${logs()}\nthe run: ${seen}`,
  ) as Promise<WorkflowDetail>;
};
// QueueFlow 0.6.0's halt is racy: when `audit` (beside `charge`) completes while `charge` fails,
// the run ends `partially_failed` with `audit` cancelled although its job ran (reproduced with
// three runs of this file at once; docs/systems/queueflow.md). Either way it is a failed run.
const ENDED_FAILED = ['failed', 'partially_failed'];
const step = (d: WorkflowDetail, name: string) => d.steps.find((x) => x.name === name)!;

beforeAll(() => {
  if (!s) return;
  worker = new PyWorker(s, Q);
  worker.start();
  const [chain, fanout, order] = createWorkflows(s, shapes(Q, Q, N));
  ids = { chain: chain!.id, fanout: fanout!.id, order: order!.id };
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  s?.stop();
});

run('QueueFlow workflows: runs, DAG, failure and retry with the real server and client', () => {
  it('declares the view on, with its statuses, and lists runs by status', async () => {
    const a = adapter();
    expect((await a.capabilities()).workflows).toEqual({ on: true });
    expect(a.model.workflows?.runStatuses.map((x) => x.key)).toContain('partially_failed');
    await settled(ids.chain, ['completed']);
    const done = await flows().list(ZWorkflowListQuery.parse({ status: 'completed' }));
    expect(done.items.map((r) => r.id)).toContain(ids.chain);
    expect(done.items.every((r) => r.status === 'completed')).toBe(true);
    expect(done.total).toBeGreaterThanOrEqual(1);
  });

  it('pages the list with the server cursor, no run twice', async () => {
    createWorkflows(
      s!,
      [1, 2, 3].map((i) => ({ name: `page-${i}-${Q}`, steps: [{ name: 'only', task: 'qf.ok', queue: IDLE }] })),
    );
    const first = await flows().list(ZWorkflowListQuery.parse({ limit: 2 }));
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toMatch(/^\d+:/);
    const second = await flows().list(ZWorkflowListQuery.parse({ limit: 2, cursor: first.nextCursor! }));
    expect(second.items.length).toBeGreaterThan(0);
    const seen = [...first.items, ...second.items].map((r) => r.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(Date.parse(second.items[0]!.createdAt)).toBeLessThanOrEqual(Date.parse(first.items[1]!.createdAt));
  });

  it('draws a chain left to right and passes each result downstream', async () => {
    const d = await settled(ids.chain, ['completed']);
    expect(d.steps.map((x) => [x.name, x.layer, x.status])).toEqual([
      ['a', 0, 'completed'],
      ['b', 1, 'completed'],
      ['c', 2, 'completed'],
    ]);
    // qf.ok echoes its payload: b received a's result under `_context`.
    expect(JSON.parse(step(d, 'a').result!)).toEqual({ echo: { step: 'a' } });
    expect(JSON.parse(step(d, 'b').result!).echo._context.a).toEqual({ echo: { step: 'a' } });
    expect(step(d, 'c').jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(step(d, 'c').seconds).toBeGreaterThanOrEqual(0);
    expect(d.failedSteps).toEqual([]);
    expect(d.retry.on).toBe(false);
  });

  it('shows a fan-out with its children counted and the join after both branches', async () => {
    const d = await settled(ids.fanout, ['completed']);
    expect(step(d, 'each').fanOut).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(JSON.parse(step(d, 'each').result!).results).toHaveLength(3);
    expect(step(d, 'join').layer).toBe(2);
    expect(step(d, 'left').layer).toBe(1);
    expect(new Set(d.steps.map((x) => `${x.layer}:${x.row}`)).size).toBe(d.steps.length);
  });

  it('marks the failed step, what it blocks, and the cause on the overview', async () => {
    const d = await settled(ids.order, ENDED_FAILED);
    expect(d.failedSteps).toEqual(['charge']);
    expect(step(d, 'charge').error).toContain(`payload n=${N}`);
    expect(d.error).toContain("step 'charge' failed");
    expect(step(d, 'ship').blockedBy).toBe('charge');
    expect(step(d, 'notify').blockedBy).toBe('charge');
    expect(step(d, 'prepare').blockedBy).toBeNull();
    expect(step(d, 'audit').blockedBy).toBeNull();
    expect(d.retry.on).toBe(true);
    expect(d.retry.resets).toEqual(expect.arrayContaining(['charge', 'ship', 'notify']));
    expect(d.retry.resets).not.toContain('prepare');
    const o = await adapter().overview();
    expect(o.workflows?.failed).toBeGreaterThanOrEqual(1);
    expect(o.workflows?.recent.map((r) => r.id)).toContain(ids.order);
    expect(o.warnings?.join('\n')).toMatch(/failed workflow run/);
  });

  it('retries the failed run with the server, which reruns only what did not complete', async () => {
    await settled(ids.order, ENDED_FAILED);
    const prepareJob = step((await flows().get(ids.order))!, 'prepare').jobId;
    // The fix is deployed: the worker's qf.fatal now succeeds for this n.
    fs.writeFileSync(path.join(worker.out, `fixed-${N}`), '');
    await flows().retry(ids.order);
    const d = await settled(ids.order, ['completed']);
    expect(d.retries).toBe(1);
    expect(step(d, 'prepare').jobId).toBe(prepareJob);
    expect(d.steps.every((x) => x.status === 'completed')).toBe(true);
    const server = await call<{ status: string; retry_count: number }>(s!, 'GET', `/api/v1/workflows/${ids.order}`);
    expect(server.body).toMatchObject({ status: 'completed', retry_count: 1 });
  });

  it("refuses to retry a completed run in QueueFlow's words, changing nothing", async () => {
    await settled(ids.chain, ['completed']);
    await expect(flows().retry(ids.chain)).rejects.toMatchObject({ code: 'Conflict', message: expect.stringContaining('completed') });
    const server = await call<{ status: string; retry_count: number }>(s!, 'GET', `/api/v1/workflows/${ids.chain}`);
    expect(server.body).toMatchObject({ status: 'completed', retry_count: 0 });
  });

  it('answers a malformed id, an unknown id and an unknown status clearly', async () => {
    await expect(flows().get('../jobs')).rejects.toMatchObject({ code: 'InvalidInput', fields: { id: expect.stringContaining('UUID') } });
    expect(await flows().get('00000000-0000-4000-8000-000000000000')).toBeNull();
    await expect(flows().retry('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'NotFound' });
    await expect(flows().list(ZWorkflowListQuery.parse({ status: 'exploded' }))).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { status: expect.stringContaining('partially_failed') },
    });
    await expect(flows().list(ZWorkflowListQuery.parse({ cursor: 'nope' }))).rejects.toMatchObject({ code: 'InvalidInput' });
  });

  it("hides another tenant's run as not found", async () => {
    const [theirs] = createWorkflows({ ...s!, token: s!.tokenB }, [{ name: `b-${Q}`, steps: [{ name: 'x', task: 'qf.ok', queue: IDLE }] }]);
    expect(await flows().get(theirs!.id)).toBeNull();
  });

  it('lays out a 300-step run quickly, every edge left to right', async () => {
    const [big] = createWorkflows(s!, [bigWorkflow(`big-${Q}`, IDLE)]);
    const t = performance.now();
    const d = (await flows().get(big!.id))!;
    expect(performance.now() - t).toBeLessThan(3000);
    expect(d.steps).toHaveLength(300);
    const at = new Map(d.steps.map((x) => [x.name, x]));
    for (const x of d.steps) for (const dep of x.dependsOn) expect(at.get(dep)!.layer).toBeLessThan(x.layer);
    expect(new Set(d.steps.map((x) => `${x.layer}:${x.row}`)).size).toBe(300);
  });
});
