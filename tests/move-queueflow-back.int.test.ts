// The way back: QueueFlow dead letters moved to Celery (Redis) and potatoq (SQLite) through the
// call mapping read the other way, with real components: the QueueFlow 0.6.0 server and its
// Python client's worker make the letters (and would run any copy of them), a Celery 5.7 worker
// and a potatoq worker run the moved tasks. Exactly once: the move journal, the target task's id
// derived from the job's id, and the letter let go by its replay with the copy cancelled while
// its queue is paused; after a console that stopped between the steps, one killed (SIGKILL)
// while letting the letter go, and two console processes moving the same letter.
// int-lane: owns redis/11 redis/12; uses redis/13 (the rig: Celery on dbs 11 and 12; potatoq under a prefix)
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsIn } from '@/tests/support/runs-log';
import { call, ROOT, until } from '@/tests/queueflow/support';
import {
  BY,
  getAdapter,
  getMoveJournal,
  move,
  otherConsole,
  previewMove,
  outC,
  outP,
  Q,
  s,
  save,
  startWorkers,
  stoppedMove,
  stopWorkers,
  up,
} from '@/tests/support/move-qf-rig';

import { BACK, lefQueueFlow, letterOf, logs, old, paused, qfLetter, ranOn, sentByHand, statusOf } from '@/tests/support/move-qf-back';

describe.skipIf(!up)('moving QueueFlow dead letters back to Celery and potatoq through call mappings, with real workers', () => {
  beforeAll(async () => {
    old.start();
    await startWorkers();
  }, 90_000);
  afterAll(async () => {
    await old?.stop();
    await stopWorkers();
  }, 60_000);

  it('offers Celery and potatoq as targets of the way back, and says why not with a read-only token', async () => {
    const by = Object.fromEntries((await move.moveTargets('qf')).map((t) => [t.id, t.pairing]));
    expect(by.celery).toEqual({ on: true, mapped: true, back: true, does: expect.stringMatching(/payload keys back to positional/) });
    expect(by.sq).toMatchObject({ on: true, back: true });
    const ro = Object.fromEntries((await move.moveTargets('qfro')).map((t) => [t.id, t.pairing]));
    expect(ro.celery).toEqual({ on: false, why: expect.stringMatching(/^QueueFlow RO cannot replay \(and so remove\) its letters: /) });
  });

  it('refuses a letter with no mapping or one it cannot convert (nothing sent), then moves it once to Celery', async () => {
    const { id, job, payload } = await qfLetter();
    const none = await move.moveDead('qf', 'celery', [id], BY);
    expect(none.failed).toEqual([{ id, outcome: 'invalid', message: expect.stringMatching(/no call mapping .* target task "qf.fatal"/) }]);
    await save({ ...BACK, args: ['n', 'label', 'missing'] });
    const lacks = await move.moveDead('qf', 'celery', [id], BY);
    expect(lacks.failed[0]?.message).toMatch(/payload\.missing: the job has no payload key "missing" for positional argument 2/);
    expect((await letterOf(id)).replayed_at).toBeUndefined();
    expect(runsIn(outC, job)).toBe(0);

    await save(BACK);
    const r = await move.moveDead('qf', 'celery', [id], BY);
    expect(r.failed).toEqual([]);
    expect(r.succeeded).toEqual([
      {
        id,
        outcome: 'ok',
        taskId: job,
        message: expect.stringMatching(
          /^enqueued on Celery \(as task [0-9a-f-]+: sent to .*\); on QueueFlow: marked as moved to Celery: replayed as job .*, which was cancelled before any worker could take it/,
        ),
      },
    ]);
    await until('the Celery worker to run it', () => runsIn(outC, job) > 0, 40_000, logs);
    expect(ranOn(outC, job)).toEqual({
      system: 'celery',
      args: [
        ['int', String(payload.n)],
        ['str', "'x'"],
      ],
      kwargs: { extra: ['bool', 'True'] },
    });
    await lefQueueFlow(id, job);
    // Gone from the dead letters (replayed); moving it again sends nothing.
    expect((await move.moveDead('qf', 'celery', [id], BY)).failed[0]?.outcome).toBe('missing');
    expect(runsIn(outC, job)).toBe(1);
  }, 120_000);

  it('previews a dead letter and pending jobs beside the Celery calls they become, changing nothing', async () => {
    await save(BACK);
    const { id, job, payload } = await qfLetter();
    // Pending on a queue no QueueFlow worker leases: one the mapping converts, one lacking `label`.
    const idle = `${Q}-idle`;
    const pend = async (p: Record<string, unknown>, at?: number) =>
      (
        await call<{ job_id: string }>(s!, 'POST', '/api/v1/jobs', {
          body: { task_name: 'qf.fatal', payload: p, config: { queue: idle }, ...(at ? { run_at: new Date(at).toISOString() } : {}) },
        })
      ).body.job_id;
    const [ok, lacks, later] = [
      await pend({ n: 41, label: 'p', extra: null }),
      await pend({ n: 42 }),
      await pend({ n: 43, label: 'l' }, Date.now() + 3600_000),
    ];
    try {
      const dead = await previewMove('qf', 'celery', [id], 'dead');
      expect(dead.keyed).toMatch(/under its QueueFlow job's id/);
      expect(dead.items).toEqual([
        {
          id,
          source: null,
          job: null,
          letter: { jobId: job, task: 'qf.fatal', queue: Q, payload, priority: 0 },
          call: { id: job, task: 'mv.record', queue: Q, args: `[${payload.n}, 'x']`, kwargs: "{'extra': True}", priority: 0 },
          problems: {},
          notCarried: [expect.stringMatching(/retry settings/)],
          notes: [],
        },
      ]);
      const waiting = await previewMove('qf', 'celery', [ok, lacks, later, 'no-such-job'], 'waiting');
      expect(waiting.items.map((i) => [i.id, i.call?.args ?? null, i.call?.kwargs ?? null, i.call?.queue ?? null, i.problems])).toEqual([
        [ok, "[41, 'p']", "{'extra': None}", idle, {}],
        [lacks, null, null, null, { 'payload.label': expect.stringMatching(/no payload key "label" for positional argument 1/) }],
        [later, null, null, null, { id: 'scheduled for later' }],
        ['no-such-job', null, null, null, { id: 'not a pending job on QueueFlow' }],
      ]);
      expect(waiting.items[0]?.call?.id).toBe(ok);
      // Nothing written: the letter not replayed, the jobs still pending, nothing on Celery.
      expect((await letterOf(id)).replayed_at).toBeUndefined();
      expect([await statusOf(ok), await statusOf(lacks), await statusOf(later)]).toEqual(['pending', 'pending', 'pending']);
      expect([await getAdapter('celery').findCall!(job), await getAdapter('celery').findCall!(ok)]).toEqual([null, null]);
      expect(runsIn(outC, job) + runsIn(outC, ok)).toBe(0);
    } finally {
      await getAdapter('qf').revoke([ok, lacks, later]);
    }
  }, 120_000);

  it('moves a letter to potatoq with its own mapping, run once there', async () => {
    await save({ ...BACK, source: 'sq', args: ['n'] });
    const { id, job, payload } = await qfLetter();
    const r = await move.moveDead('qf', 'sq', [id], BY);
    expect(r.succeeded).toEqual([{ id, outcome: 'ok', taskId: job, message: expect.stringMatching(/^enqueued on potatoq SQLite/) }]);
    await until('the potatoq worker to run it', () => runsIn(outP, job) > 0, 40_000, logs);
    expect(ranOn(outP, job)).toMatchObject({
      args: [['int', String(payload.n)]],
      kwargs: { label: ['str', "'x'"], extra: ['bool', 'True'] },
    });
    await lefQueueFlow(id, job);
    expect(runsIn(outP, job)).toBe(1);
  }, 120_000);

  it('a console that stopped after the enqueue: the next move finds the task on Celery ("already") and lets the letter go', async () => {
    await save(BACK);
    const { id, job } = await qfLetter();
    const journal = await getMoveJournal();
    const row = stoppedMove('qf', id, 'celery');
    expect(await journal.begin(row)).toEqual({ won: true });
    expect(await sentByHand(id)).toBe('ok');
    await until('the Celery worker to run it', () => runsIn(outC, job) > 0, 40_000, logs);

    const r = await move.moveDead('qf', 'celery', [id], BY);
    expect(r.succeeded).toEqual([
      {
        id,
        outcome: 'already',
        message: expect.stringMatching(
          /^already on Celery \(.*\), sent there by a move .* by olga .*; on QueueFlow: marked as moved to Celery/,
        ),
      },
    ]);
    expect(await journal.get('qf', id)).toBeNull();
    await lefQueueFlow(id, job);
    expect(runsIn(outC, job)).toBe(1);
  }, 120_000);

  it('a console killed while letting the letter go: its queue stays paused, so the copy never runs, and the next read recovers it', async () => {
    await save(BACK);
    const { id, job } = await qfLetter();
    expect(await sentByHand(id)).toBe('ok');
    const child = spawn(
      path.join(ROOT, 'node_modules/.bin/vite-node'),
      ['--config', 'vitest.config.ts', 'tests/support/move-back-child.ts', id],
      {
        cwd: ROOT,
        env: { ...process.env, QF_URL: s!.url, QF_TOKEN: s!.token, LEASE_MS: '2000' },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await until(
      'the child console to replay the letter',
      () => out.includes('holding'),
      60_000,
      () => out,
    );
    await new Promise<void>((res) => (child.on('exit', () => res()), child.kill('SIGKILL')));
    const copy = (await letterOf(id)).replay_job_id!;
    expect(await paused()).toBe(true);
    expect(await statusOf(copy)).toBe('pending');
    // After its hold ran out, any read of the broker's overview finishes the move's last step.
    await new Promise((res) => setTimeout(res, 2500));
    await until('the recovery', async () => (await getAdapter('qf').overview(), (await statusOf(copy)) === 'cancelled'), 30_000, logs);
    await until('the queue resumed', async () => !(await paused()), 10_000, logs);
    await lefQueueFlow(id, job);
    await until('the Celery worker to run it', () => runsIn(outC, job) > 0, 40_000, logs);
    expect(runsIn(outC, job)).toBe(1);
  }, 150_000);

  it('two console processes moving the same letter: one task on Celery, run once, never on QueueFlow', async () => {
    await save(BACK);
    const { id, job } = await qfLetter();
    const outs = await Promise.all([
      otherConsole('qf', id, 'ann', { MOVE_TO: 'celery' }),
      otherConsole('qf', id, 'ben', { MOVE_TO: 'celery' }),
    ]);
    const results = outs.map(
      (o) =>
        JSON.parse(/RESULT (.*)/.exec(o)?.[1] ?? 'null') as {
          succeeded: Array<{ outcome: string }>;
          failed: Array<{ outcome: string }>;
        } | null,
    );
    expect(results.every(Boolean), outs.join('\n')).toBe(true);
    const outcomes = results.flatMap((x) => [...x!.succeeded, ...x!.failed].map((o) => o.outcome));
    expect(
      outcomes.filter((o) => o === 'ok'),
      outcomes.join(),
    ).toHaveLength(1);
    expect(
      outcomes.every((o) => ['ok', 'conflict', 'missing', 'already'].includes(o)),
      outcomes.join(),
    ).toBe(true);
    await until('the Celery worker to run it', () => runsIn(outC, job) > 0, 40_000, logs);
    await lefQueueFlow(id, job);
    expect(runsIn(outC, job)).toBe(1);
  }, 150_000);
});
