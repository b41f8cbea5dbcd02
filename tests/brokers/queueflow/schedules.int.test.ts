// QueueFlow's cron schedules through the adapter, against the REAL server 0.6.0: schedules the
// real Python client creates, their firings made by the server's janitor and run by its own
// workers, every action checked on the server, and bad input refused with nothing changed.
import { afterAll, describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { nextFirings, parseCron } from '@/lib/brokers/cron';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { runNowKey } from '@/lib/brokers/queueflow/schedules-write';
import type { ScheduleInput } from '@/lib/brokers/schedule';
import { adapterContext } from '@/lib/brokers/systems-context';
import { createCrons, listCronsWithClient, sql } from '@/tests/queueflow/cron-support';
import { call, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';

const s = startQueueflow();
afterAll(() => s?.stop());
const run = s ? describe : describe.skip;

const adapter = (token = s!.token) =>
  createQueueflowAdapter({ id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token } }, adapterContext());
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );
const cron = (id: string) => call<Record<string, unknown>>(s!, 'GET', `/api/v1/cron/${id}`);
const names = async () =>
  (await call<{ crons: Array<{ name: string }> }>(s!, 'GET', '/api/v1/cron?limit=100')).body.crons.map((c) => c.name);
const input = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
  name: uniqueQueue('sch'),
  cron: '*/5 * * * *',
  timeZone: 'UTC',
  task: 'echo',
  queue: s!.inprocQueue,
  fields: { payload: '{"n": 1}' },
  ...over,
});

run('QueueFlow cron schedules on the real server', () => {
  it('lists what the client created: words, cron, UTC, next firing as the server computes it', async () => {
    const name = uniqueQueue('py');
    const [id] = createCrons(s!, [{ name, schedule: '30 3 * * 1-5', task: 'echo', payload: { k: 'v' }, queue: s!.inprocQueue }]);
    const list = await adapter().listSchedules!();
    const got = list.schedules.find((x) => x.id === id)!;
    expect(got).toMatchObject({ name, task: 'echo', cron: '30 3 * * 1-5', timeZone: 'UTC', paused: false, last: null, problems: [] });
    // QueueFlow's days of the week count from Sunday = 1: 1-5 is Sunday through Thursday.
    expect(got.words).toBe('at 03:30 on Sunday through Thursday UTC');
    expect(JSON.parse(got.payload!)).toEqual({ k: 'v' });
    const server = (await cron(id!)).body;
    expect(got.nextAt).toBe(server.next_run_at);
    const p = parseCron('30 3 * * 1-5');
    expect(p.ok && nextFirings(p.fields, new Date(Date.parse(String(server.created_at))))[0]!.getTime()).toBe(Date.parse(got.nextAt!));
    // The client's own model reads the same schedule.
    expect(listCronsWithClient(s!).find((c) => c.id === id)).toMatchObject({ name, cron_expr: '30 3 * * 1-5', enabled: true });
  });

  it("links a firing to the job it made, with its due time and the job's state", async () => {
    // A seconds field fires at every janitor tick (1 s here): the server's own workers run echo.
    const [id] = createCrons(s!, [{ name: uniqueQueue('tick'), schedule: '*/2 * * * * *', task: 'echo', queue: s!.inprocQueue }]);
    const got = await until('a completed firing', async () => {
      const x = (await adapter().listSchedules!()).schedules.find((y) => y.id === id);
      return x?.last?.state === 'completed' ? x : null;
    });
    expect(got.words).toBe('every 2 seconds UTC');
    expect(got.last).toMatchObject({ link: 'result', state: 'completed' });
    const job = (await call<Record<string, unknown>>(s!, 'GET', `/api/v1/jobs/${got.last!.jobId}`)).body;
    expect(job.metadata).toMatchObject({ cron_id: id });
    expect(job.idempotency_key).toBe(`cron:${id}:${Date.parse(got.last!.dueAt!) / 1000}`);
    await adapter().scheduleAction!(id!, 'delete');
  });

  it('pauses, resumes and deletes, each checked on the server; a repeat says already', async () => {
    const a = adapter();
    const { id } = await a.createSchedule!(input());
    expect((await cron(id)).body.enabled).toBe(true);
    expect((await a.scheduleAction!(id, 'pause')).outcome).toBe('ok');
    expect((await cron(id)).body.enabled).toBe(false);
    expect((await a.listSchedules!()).schedules.find((x) => x.id === id)).toMatchObject({ paused: true, nextAt: null });
    expect((await a.scheduleAction!(id, 'pause')).outcome).toBe('already');
    expect((await a.scheduleAction!(id, 'resume')).outcome).toBe('ok');
    expect((await cron(id)).body.enabled).toBe(true);
    expect((await a.scheduleAction!(id, 'delete')).outcome).toBe('ok');
    expect((await cron(id)).status).toBe(404);
    const e = await failure(a.scheduleAction!(id, 'pause'));
    expect(isConsoleError(e) && e.code).toBe('NotFound');
  });

  it('runs a schedule now once per key: the same key again answers the same job', async () => {
    const a = adapter();
    const q = uniqueQueue('now');
    const { id } = await a.createSchedule!(input({ queue: q, fields: { payload: '{"a": [1, 2]}', max_retries: '7' } }));
    const first = await a.scheduleAction!(id, 'run-now', 'k-0000000001');
    expect(first.outcome).toBe('ok');
    const job = (await call<Record<string, unknown>>(s!, 'GET', `/api/v1/jobs/${first.jobId}`)).body;
    expect(job).toMatchObject({ task_name: 'echo', queue_name: q, payload: { a: [1, 2] }, idempotency_key: runNowKey(id, 'k-0000000001') });
    expect((job.config as Record<string, unknown>).max_retries).toBe(7);
    const again = await a.scheduleAction!(id, 'run-now', 'k-0000000001');
    expect(again).toMatchObject({ outcome: 'already', jobId: first.jobId });
    const other = await a.scheduleAction!(id, 'run-now', 'k-0000000002');
    expect(other.jobId).not.toBe(first.jobId);
    // The schedule's own next firing did not move.
    expect((await cron(id)).body.last_enqueued_at).toBeUndefined();
  });

  it('refuses bad input under its field and creates nothing', async () => {
    const a = adapter();
    const before = await names();
    const cases: Array<[Partial<ScheduleInput>, string]> = [
      [{ cron: '61 * * * *' }, 'cron'],
      [{ cron: '0 3 * *' }, 'cron'],
      [{ cron: '0 3 * * 0' }, 'cron'],
      [{ cron: '* * * * * *' }, 'cron'],
      [{ cron: '*/10 * * * * *' }, 'cron'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ timeZone: 'Europe/Paris' }, 'timeZone'],
      [{ fields: { payload: '[1]' } }, 'fields.payload'],
      [{ fields: { max_retries: '5000' } }, 'fields.max_retries'],
      [{ fields: { colour: 'red' } }, 'fields.colour'],
      [{ queue: 'has space' }, 'queue'],
    ];
    for (const [over, field] of cases) {
      const e = await failure(a.createSchedule!(input(over)));
      expect(isConsoleError(e) && e.code, JSON.stringify(over)).toBe('InvalidInput');
      expect(isConsoleError(e) && Object.keys(e.fields ?? {}), JSON.stringify(over)).toEqual([field]);
      const p = await failure(a.previewSchedule!(input(over)));
      expect(isConsoleError(p) && Object.keys(p.fields ?? {})).toEqual([field]);
    }
    const dup = input();
    await a.createSchedule!(dup);
    const e = await failure(a.createSchedule!(dup));
    expect(isConsoleError(e) && e.fields).toEqual({ name: 'a schedule with this name already exists' });
    expect((await names()).filter((n) => !before.includes(n))).toEqual([dup.name]);
  });

  it('previews the exact calls; an edit is a delete then a create, a bad edit deletes nothing', async () => {
    const a = adapter();
    const first = input();
    const { id } = await a.createSchedule!(first);
    const p = await a.previewSchedule!(input({ name: first.name, cron: '0 9 * * 2' }), id);
    expect(p.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`DELETE /api/v1/cron/${id}`, 'POST /api/v1/cron']);
    expect(JSON.parse(p.calls[1]!.body!)).toEqual({
      name: first.name,
      cron_expr: '0 9 * * 2',
      task_name: 'echo',
      payload: { n: 1 },
      queue: s!.inprocQueue,
    });
    expect(p.words).toBe('at 09:00 on Monday UTC');
    const bad = await failure(a.editSchedule!(id, input({ name: first.name, cron: 'nope' })));
    expect(isConsoleError(bad) && bad.fields).toHaveProperty('cron');
    expect((await cron(id)).status).toBe(200);
    const edited = await a.editSchedule!(id, input({ name: first.name, cron: '0 9 * * 2' }));
    expect(edited.id).not.toBe(id);
    expect((await cron(id)).status).toBe(404);
    expect((await cron(edited.id)).body).toMatchObject({ name: first.name, cron_expr: '0 9 * * 2' });
  });

  it('flags a firing the server keeps failing to make, and a catch-up that collapsed occurrences', async () => {
    const a = adapter();
    // Every firing's enqueue fails (a config the engine refuses), so next_run_at stays in the past.
    const stuck = await a.createSchedule!(input());
    await sql(
      s!,
      `UPDATE queueflow.cron_schedules SET config = '{"max_retries": 5000}', next_run_at = now() - interval '10 minutes' WHERE id = $1`,
      [stuck.id],
    );
    // The server was down for 20 minutes: its next firing is one catch-up for four occurrences.
    const late = await a.createSchedule!(input());
    await sql(s!, `UPDATE queueflow.cron_schedules SET next_run_at = date_trunc('hour', now()) - interval '1 hour' WHERE id = $1`, [
      late.id,
    ]);
    const list = await until('the catch-up firing', async () => {
      const l = await a.listSchedules!();
      return l.schedules.find((x) => x.id === late.id)?.last?.jobId ? l : null;
    });
    const st = list.schedules.find((x) => x.id === stuck.id)!;
    expect(st.problems.map((p) => p.kind)).toEqual(['missed']);
    expect(st.problems[0]!.cause).toMatch(/not fired/);
    const lt = list.schedules.find((x) => x.id === late.id)!;
    expect(lt.problems.map((p) => p.kind)).toEqual(['missed']);
    expect(lt.problems[0]!.cause).toMatch(/collapsed into that one catch-up firing/);
  });

  it('refuses writes with a read-only token, and shows another tenant nothing', async () => {
    const { id } = await adapter().createSchedule!(input());
    const ro = adapter(s!.tokenRo);
    expect((await ro.capabilities())['schedules:write']).toMatchObject({ on: false });
    const e = await failure(ro.scheduleAction!(id, 'pause'));
    expect(isConsoleError(e) && e.code).toBe('Forbidden');
    expect((await cron(id)).body.enabled).toBe(true);
    const b = adapter(s!.tokenB);
    expect((await b.listSchedules!()).schedules.some((x) => x.id === id)).toBe(false);
    expect(await b.getSchedule!(id)).toBeNull();
  });
});
