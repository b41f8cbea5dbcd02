// Round trips between the console's RabbitMQ adapter and the REAL potatoq 26.1a8 on RabbitMQ
// 4.3 (scripts/services.sh up rabbitmq4) with a Redis result backend under a per-run key prefix: potatoq's
// worker dead-letters a failing task, an unregistered task and a real Celery producer's message;
// the console shows them with potatoq's reasons, replays (or converts) them and the worker runs
// them; a console revoke makes the worker skip a task; console enqueues run.
// int-lane: owns rabbitmq; uses redis/0 (RabbitMQ as a whole, conservatively; results under a per-run prefix)
import { execFileSync } from 'node:child_process';
import { ZEnqueueInput } from '@/lib/actions/schemas';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZDeadListQuery, type DeadSummary } from '@/lib/brokers/schema';
import { DELAY_REFUSAL } from '@/lib/brokers/potatoq/rabbitmq/topology';
import type { RabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';
import {
  newTag,
  potatoqUrl,
  PY_DIR,
  rabbitAdapter,
  rabbitVersion,
  redisAvailable,
  REDIS_URL,
  RMQ4_MGMT,
  RMQ4_URL,
  spawnRabbitSeeder,
} from '@/tests/support/rabbitmq';
import type { PySeeder } from '../support/potatoq-seeder';
import { POTATOQ, PYTHON, ROOT } from '../support/potatoq-seeder';
import { SoloWorker, until } from '../support/solo-worker';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)) && (await redisAvailable());
if (available) {
  // The Celery producer of the Celery round trip (the lead adds celery to scripts/ensure-venv.sh).
  try {
    execFileSync(PYTHON, ['-c', 'import celery'], { stdio: 'pipe' });
  } catch {
    execFileSync(path.join(ROOT, '.venv/bin/pip'), ['install', '-q', 'celery'], { stdio: 'inherit' });
  }
}

const tag = newTag();
const queue = `rt${tag}`;
let dir = '';
let env: NodeJS.ProcessEnv = { ...process.env };
let rmq: RabbitmqAdapter;
let py: PySeeder;
let worker: SoloWorker | undefined;

const potatoq = (...args: string[]) =>
  execFileSync(POTATOQ, ['-A', 'rt_rabbit_tasks', '--no-color', '--no-emoji', ...args], { cwd: PY_DIR, env })
    .toString()
    .trim();
const recorded = (id: string) => {
  const f = path.join(dir, `${id}.json`);
  return fs.existsSync(f)
    ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { task: string; args: string[]; kwargs: Record<string, string> })
    : null;
};
const dead = async (): Promise<DeadSummary[]> => (await rmq.listDead(ZDeadListQuery.parse({ queue, limit: 500 }))).items;
const log = () => worker?.log ?? '';

const startWorker = (late: boolean) => {
  worker ??= new SoloWorker('rt_rabbit_tasks', PY_DIR, env);
  worker.start([queue], { RT_LATE: late ? '1' : '0' });
};
const stopWorker = () => worker?.stop();

describe.skipIf(!available)('RabbitMQ 4 round trips with the real potatoq and a Redis result backend', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-rabbit-'));
    env = {
      ...process.env,
      RT_BROKER: potatoqUrl(RMQ4_URL),
      RT_BACKEND: REDIS_URL,
      RT_PREFIX: tag,
      RT_QUEUE: queue,
      RT_OUT: dir,
      POTATOQ_NO_EMOJI: '1',
      NO_COLOR: '1',
      PYTHONUNBUFFERED: '1',
    };
    py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    await py.call('track', { queue });
    rmq = rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT, resultBackend: REDIS_URL, resultBackendOptions: { prefix: tag } });
    startWorker(false);
    await until('the worker to declare its queue', async () => (await rmq.overview()).queues.some((q) => q.name === queue), 30_000, log);
  }, 60_000);

  afterAll(async () => {
    await stopWorker();
    await rmq?.close();
    await py?.call('cleanup').catch(() => undefined);
    await py?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  let flakyId = '';
  let lateId = '';

  it('shows a failing task and an unregistered task dead-lettered by the worker, with potatoq reasons and the FAILURE result', async () => {
    flakyId = potatoq('call', 'rt.flaky', '-Q', queue, '-a', '[1]').split(/\s+/).pop()!;
    lateId = potatoq('call', 'rt.late', '-Q', queue, '-a', '[2]').split(/\s+/).pop()!;
    const letters = await until('both letters', async () => ((await dead()).length >= 2 ? dead() : null), 60_000, log);
    const byId = Object.fromEntries(letters.map((l) => [l.id, l]));
    expect(byId[flakyId]?.summary).toBe('RuntimeError: first attempt fails');
    expect(byId[flakyId]?.task).toBe('rt.flaky');
    expect(byId[lateId]?.summary).toBe('unregistered task rt.late');
    const detail = await rmq.getDead(flakyId);
    expect(detail?.reason).toContain('Traceback (most recent call last)');
    expect(detail?.payload.foreign).toBeNull();
    expect(detail?.result?.status).toBe('FAILURE');
    expect(detail?.result?.excType).toBe('RuntimeError');
    const groups = (await rmq.deadGroups({ queue })).groups;
    expect(groups.map((g) => g.pattern).sort()).toEqual(['RuntimeError: first attempt fails', 'unregistered task rt.late']);
    // Browsing kept them: potatoq's own CLI still lists both.
    const cli = JSON.parse(potatoq('dead', 'list', '--json').replace(/^[^[]*/, '')) as Array<{ id: string }>;
    expect(cli.map((l) => l.id).sort()).toEqual([flakyId, lateId].sort());
  }, 90_000);

  it('replays both letters and a worker that can run them does', async () => {
    await stopWorker();
    fs.writeFileSync(path.join(dir, 'flaky-ok'), '');
    startWorker(true);
    const r = await rmq.replayDead([flakyId, lateId]);
    expect(r.failed).toEqual([]);
    expect(r.succeeded.map((o) => o.id).sort()).toEqual([flakyId, lateId].sort());
    await until('both replayed tasks to run', () => recorded(flakyId) && recorded(lateId), 60_000, log);
    expect(recorded(lateId)?.args).toEqual(['2']);
    expect((await dead()).map((l) => l.id)).not.toContain(flakyId);
  }, 90_000);

  it("dead-letters a real Celery producer's message, shows it as Celery, and converts it into a potatoq task that runs", async () => {
    const celeryId = execFileSync(PYTHON, [path.join(PY_DIR, 'rt_celery_send.py'), potatoqUrl(RMQ4_URL), queue], { cwd: PY_DIR, env })
      .toString()
      .trim();
    const letter = await until('the Celery letter', async () => (await dead()).find((l) => l.id === celeryId), 60_000, log);
    expect(letter.task).toBe('proj.add');
    expect(letter.summary).toContain('This is a Celery (protocol 2) message');
    const d = await rmq.getDead(celeryId);
    expect(d?.payload.foreign).not.toBeNull();
    if (!d?.payload.foreign) throw new Error('not foreign');
    expect(d.payload.foreign.code).toBe('celery-v2');
    // Celery's task name and id (from its headers) and args/kwargs (from its body).
    expect(d.payload.format).toBe('celery');
    expect(d.payload.task).toBe('proj.add');
    expect(d.payload.id).toBe(celeryId);
    expect(d.payload.headers).toEqual(
      expect.arrayContaining([
        { name: 'task', text: 'proj.add' },
        { name: 'id', text: celeryId },
      ]),
    );
    expect(d.payload.args).toEqual({
      t: 'list',
      items: [
        { t: 'int', v: '2' },
        { t: 'int', v: '3' },
      ],
    });
    expect(d.payload.kwargs).toEqual({ t: 'dict', entries: [['z', { t: 'int', v: '1' }]] });
    const replay = await rmq.replayDead([celeryId]);
    expect(replay.failed[0]?.outcome).toBe('invalid');
    expect(replay.failed[0]?.message).toContain('convert');
    const conv = await rmq.convertCelery([celeryId]);
    expect(conv.succeeded.map((o) => o.id)).toEqual([celeryId]);
    const ran = await until('the converted task to run', () => recorded(celeryId), 60_000, log);
    expect(ran).toMatchObject({ task: 'proj.add', args: ['2', '3'], kwargs: { z: '1' } });
  }, 120_000);

  it('marks a waiting task REVOKED in the result backend and the worker skips it', async () => {
    await stopWorker();
    const victim = await rmq.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue, args: '["revoked"]' }));
    const after = await rmq.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue, args: '["after"]' }));
    const r = await rmq.revoke([victim.id]);
    expect(r.succeeded[0]?.message).toContain('expires after result_expires');
    startWorker(true);
    await until('the task after the revoked one to run', () => recorded(after.id), 60_000, log);
    expect(recorded(victim.id)).toBeNull();
    expect((await py.call<{ status: string } | null>('result', { id: victim.id }))?.status).toBe('REVOKED');
    expect((await rmq.listResults({ status: 'REVOKED', limit: 50 })).items.map((x) => x.id)).toContain(victim.id);
  }, 90_000);

  it("enqueues a task potatoq runs with exact arguments, refuses delays with potatoq's reason, and refuses a queue that does not exist", async () => {
    const e = await rmq.enqueue(
      ZEnqueueInput.parse({ task: 'rt.record', queue, args: '[1, "two", 12345678901234567890]', kwargs: '{"k": 1.5}', priority: 3 }),
    );
    expect(e.state).toBe('ready');
    const ran = await until('the console-enqueued task to run', () => recorded(e.id), 60_000, log);
    expect(ran).toMatchObject({ args: ['1', "'two'", '12345678901234567890'], kwargs: { k: '1.5' } });
    const delayed = await rmq.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue, countdown: 60 })).catch((x: unknown) => x);
    expect(isConsoleError(delayed) && delayed.message).toBe(DELAY_REFUSAL);
    const nowhere = await rmq.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue: `missing${tag}` })).catch((x: unknown) => x);
    expect(isConsoleError(nowhere) && nowhere.code).toBe('NotMigrated');
    expect(isConsoleError(nowhere) && nowhere.message).toContain('potatoq migrate');
  }, 90_000);

  it('shows the live worker from its heartbeats, its registered task names, and counts of the queue', async () => {
    const workers = await until(
      'a heartbeat',
      async () => (await rmq.listWorkers()).find((w) => w.queues.includes(queue) && w.status === 'alive'),
      30_000,
      log,
    );
    expect(workers.registered ?? []).toEqual(expect.arrayContaining(['rt.record', 'rt.late', 'proj.add']));
    const names = await rmq.taskNames();
    expect(names).toEqual(expect.arrayContaining(['rt.record', 'rt.flaky', 'rt.late']));
    const ov = await rmq.overview();
    const stats = ov.queues.find((q) => q.name === queue);
    expect(stats?.counts.ready).toBe(0);
    expect(stats?.counts.scheduled).toBeNull();
    expect(ov.capabilities.browseDead.on).toBe(true);
    expect(ov.capabilities['list:scheduled']?.on).toBe(false);
    expect(ov.workers?.alive).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('purges ready tasks only: a delayed task stays in the delay cascade', async () => {
    await stopWorker();
    for (const i of [1, 2, 3]) potatoq('call', 'rt.record', '-Q', queue, '-a', `[${i}]`);
    const before = (await rmq.overview()).totals.counts.scheduled ?? 0;
    const later = potatoq('call', 'rt.record', '-Q', queue, '-a', '["later"]', '--countdown', '3600').split(/\s+/).pop()!;
    await until('the delayed task in the cascade', async () => ((await rmq.overview()).totals.counts.scheduled ?? 0) > before, 10_000);
    const r = await rmq.purge(queue);
    expect(r.removed).toBe(3);
    expect((await rmq.overview()).totals.counts.scheduled).toBeGreaterThan(before);
    expect((await rmq.overview()).queues.find((q) => q.name === queue)?.counts.ready).toBe(0);
    expect(later).toMatch(/^[0-9a-f-]{36}$/);
  }, 60_000);

  it('turns revoke, results and workers off with the reason when no result backend is configured', async () => {
    const bare = rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT });
    try {
      const caps = await bare.capabilities();
      expect(caps.revoke).toEqual({ on: false, why: expect.stringContaining('needs a result backend') });
      expect(caps.results.on).toBe(false);
      const err = await bare.revoke(['x']).catch((x: unknown) => x);
      expect(isConsoleError(err) && err.code).toBe('Unsupported');
    } finally {
      await bare.close();
    }
  });
});
