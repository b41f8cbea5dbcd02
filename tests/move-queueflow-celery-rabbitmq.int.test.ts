// A Celery failure moved into QueueFlow when Celery's broker is RabbitMQ 4.3 (results in Redis):
// the same rig as tests/move-queueflow.int.test.ts with the broker swapped, the real Celery 5.7
// worker making the failure, the real QueueFlow 0.6.0 server and its Python client's worker
// running the job. The failure leaves Celery's result backend, the job runs once with the mapped
// payload, and Celery never runs the task again. Its own queue on RabbitMQ, deleted afterwards.
// int-lane: owns rabbitmq redis/11 redis/12; uses redis/13 (the rig with Celery on RabbitMQ, results in db 12)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const url = process.env.POTATOQ_TEST_RABBITMQ4_URL;
const mgmt = process.env.POTATOQ_TEST_RABBITMQ4_MGMT;
if (!url || !mgmt) {
  const line = '!!! RabbitMQ 4 is not configured (POTATOQ_TEST_RABBITMQ4_URL/_MGMT): SKIPPING the Celery-on-RabbitMQ move suite !!!';
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
}
// The rig reads these when it is imported; results in Redis dbs of this suite's own.
Object.assign(process.env, { MVQF_CELERY_AMQP: url ?? '', MVQF_CELERY_MGMT: mgmt ?? '', MVQF_REDIS_DBS: '11,12' });
const rig = url && mgmt ? await import('@/tests/support/move-qf-rig') : null;
const { runsIn } = await import('@/tests/support/runs-log');
const { until } = await import('@/tests/queueflow/support');

async function deleteQueue(name: string): Promise<void> {
  const u = new URL(url!);
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  await fetch(`${mgmt}/api/queues/%2F/${encodeURIComponent(name)}`, { method: 'DELETE', headers: { authorization: `Basic ${auth}` } });
}

describe.skipIf(!rig?.up)('a Celery failure on RabbitMQ moved into QueueFlow, with real workers on both sides', () => {
  const r = rig!;
  beforeAll(r.startWorkers, 90_000);
  afterAll(async () => {
    await r.stopWorkers();
    await deleteQueue(r.Q).catch(() => undefined);
  }, 60_000);

  it('is offered, previews the job, moves once, runs once there and never again on Celery', async () => {
    expect(r.C_BROKER).toBe(url);
    expect((await r.service.overview('celery')).queues.map((q) => q.name)).toContain(r.Q);
    const pairing = (await r.move.moveTargets('celery')).find((t) => t.id === 'qf')?.pairing;
    expect(pairing).toMatchObject({ on: true });
    const id = await r.celeryFailure();
    await r.save(r.MAPPING);
    const p = await r.previewMove('celery', 'qf', [id]);
    expect(p.items[0]).toMatchObject({ problems: {}, job: { task: 'qf.ok', queue: r.TQ, payload: r.PAYLOAD, key: r.moveKey(id) } });

    const moved = await r.move.moveDead('celery', 'qf', [id], r.BY);
    expect(moved.failed).toEqual([]);
    const jobId = moved.succeeded[0]?.taskId;
    expect(moved.succeeded[0]).toMatchObject({ id, outcome: 'ok', message: expect.stringMatching(/removed from Celery$/) });
    expect(await r.service.getDead('celery', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
    await until('the QueueFlow worker to run it', async () => r.qfw.runs(jobId!).length > 0, 40_000, r.logs);
    expect(r.qfw.runs(jobId!)).toEqual([expect.objectContaining({ task: 'qf.ok', outcome: 'ok', payload: r.PAYLOAD })]);
    // Once more: nothing is left to move, and the key still names the one job.
    expect((await r.move.moveDead('celery', 'qf', [id], r.BY)).failed[0]?.outcome).toBe('missing');
    expect(await r.jobsWithKey(r.moveKey(id))).toEqual([jobId]);
    expect(runsIn(r.outC, id)).toBe(0);
  }, 120_000);
});
