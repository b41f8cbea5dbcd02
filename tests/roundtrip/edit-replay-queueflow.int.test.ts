// Edit and replay on the REAL QueueFlow 0.6.0 server with the REAL Python client 0.5.0 as
// producer and workers: a worker dead-letters `qf.when` whose `at` is not a date-time; the
// console replays the letter with a typed datetime `at` (sent as ISO text: the payload is JSON), a
// new queue and a priority. A worker on the new queue runs the edited job once; the worker still
// on the old queue never gets QueueFlow's unedited copy (cancelled while that queue was paused).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery, type TypedValue } from '@/lib/brokers/schema';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import { call, produce, PyWorker, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';

const s = startQueueflow();
const run = s ? describe : describe.skip;
const from = uniqueQueue('er-from');
const to = uniqueQueue('er-to');
const AT = '2026-12-02T10:30:00+01:00';
const at = (v: string): Array<[string, TypedValue]> => [['at', { t: 'datetime', v, aware: true, epochMs: null }]];
let old: PyWorker;
let fresh: PyWorker;

const adapter = () =>
  createQueueflowAdapter({ id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token: s!.token } }, adapterContext());
const logs = () => `old:\n${old.log.slice(-1500)}\nnew:\n${fresh.log.slice(-1500)}\nserver:\n${s!.log().slice(-1500)}`;
const job = async (id: string) =>
  (await call<{ status: string; queue_name: string; payload: Record<string, unknown> }>(s!, 'GET', `/api/v1/jobs/${id}`)).body;
const letter = async (id: string) => (await call<{ replayed_at?: string; replay_job_id?: string }>(s!, 'GET', `/api/v1/dlq/${id}`)).body;

beforeAll(() => {
  if (!s) return;
  old = new PyWorker(s, from);
  fresh = new PyWorker(s, to);
  old.start();
  fresh.start();
});
afterAll(async () => {
  await old?.stop();
  await fresh?.stop();
  s?.stop();
});

run('edit and replay: QueueFlow with its real server and workers', () => {
  it('runs the edited payload once under a new job on the new queue; the unedited copy never runs; bad edits change nothing', async () => {
    const a = adapter();
    const [made] = produce(s!, [{ task: 'qf.when', queue: from, payload: { at: 'not yet', n: 1 } }]);
    const d = await until(
      'the dead letter',
      async () => {
        for (const x of (await a.listDead(ZDeadListQuery.parse({ queue: from, limit: 50 }))).items)
          if ((await a.getDead(x.id))?.payload.id === made!.id) return x;
        return null;
      },
      40_000,
      logs,
    );

    // Bad edits are refused naming the field; the letter stays unreplayed.
    for (const [edit, field] of [
      [{ kwargs: at('tomorrow 9am') }, 'kwargs.at'],
      [{ kwargs: [['at', { t: 'set', items: [] }]] as Array<[string, TypedValue]> }, 'kwargs.at'],
      [{ args: [{ t: 'int', v: '1' }] as TypedValue[] }, 'args'],
    ] as const) {
      const e = await a.replayEdited!(d.id, edit).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'InvalidInput', fields: { [field]: expect.any(String) } });
    }
    expect((await letter(d.id)).replayed_at).toBeUndefined();

    const edit = { kwargs: [...at(AT), ['n', { t: 'decimal', v: '2.50' }]] as Array<[string, TypedValue]>, queue: to, priority: 5 };
    const p = await a.previewReplayEdited!(d.id, edit);
    expect(p.sameId).toBe(false);
    expect(JSON.parse(p.before)).toMatchObject({ task_name: 'qf.when', payload: { at: 'not yet', n: 1 }, config: { queue: from } });
    expect(JSON.parse(p.after)).toMatchObject({ task_name: 'qf.when', payload: { at: AT, n: '2.50' }, config: { queue: to, priority: 5 } });

    const r = await a.replayEdited!(d.id, edit);
    expect(r.outcome).toMatchObject({ id: d.id, outcome: 'ok' });
    expect(r.newId).not.toBe(made!.id);
    const edited = r.newId;
    await until('the edited job to run', async () => fresh.runs(edited).length > 0, 40_000, logs);
    expect(fresh.runs(edited)).toEqual([
      expect.objectContaining({
        task: 'qf.when',
        outcome: 'datetime.datetime(2026, 12, 2, 10, 30, tzinfo=datetime.timezone(datetime.timedelta(seconds=3600)))',
        payload: { at: AT, n: '2.50' },
      }),
    ]);
    expect(await job(edited)).toMatchObject({ queue_name: to });

    // The letter is marked replayed (QueueFlow's own copy, cancelled before any worker got it).
    const l = await letter(d.id);
    expect(l.replayed_at).toBeTruthy();
    const copy = l.replay_job_id!;
    expect((await job(copy)).status).toBe('cancelled');
    await new Promise((res) => setTimeout(res, 2000));
    expect(old.runs(copy)).toEqual([]);
    expect(fresh.runs(edited)).toHaveLength(1);
    // The letter links the job that carries the edit, not the cancelled copy QueueFlow recorded,
    // and declares its replay off: QueueFlow refuses a second one, and so does the console, in those words.
    const why = `already replayed as job ${edited}; QueueFlow replays a letter once`;
    expect((await a.getDead(d.id))!).toMatchObject({ replayed: { taskId: edited }, unavailable: { replay: why } });
    const listed = (await a.listDead(ZDeadListQuery.parse({ queue: from, limit: 100 }))).items.find((x) => x.id === d.id)!;
    expect([listed.replayed?.taskId, listed.unavailable?.replay]).toEqual([edited, why]);
    expect((await a.replayDead([d.id])).failed).toEqual([{ id: d.id, outcome: 'already', message: why, taskId: edited }]);
    // The old queue is running again, and a second edited replay is refused the same way.
    const queues = (await call<{ queues: Array<{ queue: string; paused?: boolean }> }>(s!, 'GET', '/api/v1/queues')).body.queues;
    expect(queues.find((q) => q.queue === from)?.paused ?? false).toBe(false);
    expect(await a.replayEdited!(d.id, edit).catch((x: unknown) => x)).toMatchObject({
      code: 'NotFound',
      message: `dead letter ${d.id}: ${why}`,
    });
  }, 120_000);

  it('two edited replays on one queue at once: each pauses, replays and resumes in turn, and no unedited copy runs', async () => {
    const a = adapter();
    const made = produce(s!, [
      { task: 'qf.when', queue: from, payload: { at: 'soon', n: 3 } },
      { task: 'qf.when', queue: from, payload: { at: 'later', n: 4 } },
    ]);
    const ids = new Set(made.map((m) => m!.id));
    const letters = await until(
      'both dead letters',
      async () => {
        const found: string[] = [];
        for (const x of (await a.listDead(ZDeadListQuery.parse({ queue: from, limit: 50 }))).items)
          if (ids.has((await a.getDead(x.id))?.payload.id ?? '')) found.push(x.id);
        return found.length === 2 ? found : null;
      },
      40_000,
      logs,
    );
    const edit = { kwargs: at(AT), queue: to };
    const results = await Promise.all(letters.map((id) => a.replayEdited!(id, edit)));
    for (const r of results) {
      expect(r.outcome.outcome).toBe('ok');
      // Neither saw the queue paused by the other (it would then have left it paused).
      expect(r.outcome.message).not.toContain('was paused before');
    }
    for (const r of results) await until('the edited job to run', async () => fresh.runs(r.newId).length > 0, 40_000, logs);
    const copies = await Promise.all(letters.map(async (id) => (await letter(id)).replay_job_id!));
    for (const copy of copies) expect((await job(copy)).status).toBe('cancelled');
    await new Promise((res) => setTimeout(res, 2000));
    for (const copy of copies) expect(old.runs(copy)).toEqual([]);
    const queues = (await call<{ queues: Array<{ queue: string; paused?: boolean }> }>(s!, 'GET', '/api/v1/queues')).body.queues;
    expect(queues.find((q) => q.queue === from)?.paused ?? false).toBe(false);
  }, 120_000);
});
