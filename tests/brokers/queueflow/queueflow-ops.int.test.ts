// QueueFlow's semantics beyond the shared contract, against the REAL server 0.6.0 (its own
// database): per-status lists with the server's cursors, job detail and results, cancel and
// purge as QueueFlow's own cancel, create with its settings, replayed letters, and the
// server's errors as the console's typed errors. Seeded natively (tests/queueflow/seeder.ts).
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZDeadListQuery, ZEnqueueRequest, type TaskListQuery } from '@/lib/brokers/schema';
import { queueflowSeeder } from '@/tests/queueflow/seeder';
import { taskQuery } from '@/tests/support/task-query';
import { call, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import { createQfClient } from '@/lib/brokers/queueflow/client';
import { queueStats } from '@/lib/brokers/queueflow/overview';

const s = startQueueflow();
afterAll(() => s?.stop());
const run = s ? describe : describe.skip;

const adapter = (token = s!.token, url = s!.url, timeoutMs?: number) =>
  createQueueflowAdapter(
    { id: 'qf', name: 'QueueFlow', url, readOnly: false, options: { token, ...(timeoutMs ? { timeoutMs } : {}) } },
    adapterContext(),
  );
const list = (q: Partial<TaskListQuery> & { state: string }) => adapter().listTasks(taskQuery(q));
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

run('QueueFlow adapter on the real server', () => {
  const seed = () => queueflowSeeder(s!);

  it('lists each status newest first, pages with the server cursor, and filters what the server cannot', async () => {
    const q = uniqueQueue('qfl');
    const ids = await seed().enqueueMany(
      Array.from({ length: 12 }, (_, i) => ({
        task: i % 2 ? 'qf.odd' : 'qf.even',
        queue: q,
        kwargs: { i, note: i === 7 ? 'needle-42' : 'hay' },
      })),
    );
    const later = await seed().enqueue({ task: 'qf.later', queue: q, countdown: 3600 });
    // A pending job not due yet is shown as scheduled, with its run time; pending is what a
    // worker may lease now.
    const scheduled = (await list({ state: 'scheduled', queue: q })).items;
    expect(scheduled.map((t) => [t.id, t.state])).toEqual([[later, 'scheduled']]);
    expect(Date.parse(scheduled[0]!.runAt!)).toBeGreaterThan(Date.now() + 3_000_000);
    expect((await adapter().getTask(later))?.state).toBe('scheduled');
    const whole = (await list({ state: 'pending', queue: q, limit: 100 })).items;
    expect(whole.map((t) => t.id)).toEqual([...ids].reverse());
    expect(whole.every((t) => t.state === 'pending')).toBe(true);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list({ state: 'pending', queue: q, limit: 5, cursor });
      paged.push(...page.items.map((t) => t.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(whole.map((t) => t.id));
    expect((await list({ state: 'pending', queue: q, task: 'qf.odd' })).items).toHaveLength(6);
    expect((await list({ state: 'pending', queue: q, q: 'needle-42' })).items.map((t) => t.id)).toEqual([ids[7]]);
    expect((await list({ state: 'pending', queue: q, id: ids[3]!.slice(0, 13) })).items.map((t) => t.id)).toEqual([ids[3]]);
    // Filtered pages go on from the row they stopped at: nothing skipped, nothing repeated.
    const evens: string[] = [];
    cursor = undefined;
    do {
      const page = await list({ state: 'pending', queue: q, q: '"hay"', limit: 4, cursor });
      evens.push(...page.items.map((t) => t.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(evens).toEqual([...ids].reverse().filter((id) => id !== ids[7]));
    const claimed = await seed().claim(q);
    expect((await list({ state: 'running', queue: q })).items.map((t) => [t.id, t.state, t.claimedAt !== null])).toEqual([
      [claimed, 'running', true],
    ]);
    const other = await failure(
      list({ state: 'retrying', queue: q, cursor: (await list({ state: 'pending', queue: q, limit: 2 })).nextCursor! }),
    );
    expect(isConsoleError(other) && other.code).toBe('InvalidInput');
  });

  it('shows a job with its payload, settings and idempotency key; a finished one as its result', async () => {
    const a = adapter();
    const q = uniqueQueue('qfd');
    const made = await a.enqueue(
      ZEnqueueRequest.parse({
        task: 'qf.detail',
        queue: q,
        fields: { payload: '{"order": 17, "big": [1, 2]}', priority: '4', idempotency_key: 'k-17', max_retries: '7' },
      }),
    );
    const again = await a.enqueue(
      ZEnqueueRequest.parse({ task: 'qf.detail', queue: q, fields: { payload: { order: 18 }, idempotency_key: 'k-17' } }),
    );
    expect(again.id).toBe(made.id);
    // QueueFlow answered the repeat with its earlier job: nothing was created, and it says so.
    expect(made.outcome).toBeUndefined();
    // The state it was enqueued in is one of QueueFlow's declared states, its tab.
    expect([made.state, again.state, (await a.getTask(made.id))?.state]).toEqual(['pending', 'pending', 'pending']);
    expect(again.outcome).toMatchObject({ id: made.id, outcome: 'already', taskId: made.id });
    expect(again.outcome!.message).toMatch(new RegExp(`^already exists as job ${made.id} \\(idempotency key "k-17", created `));
    expect(again.payload).toBe(JSON.stringify({ task_name: 'qf.detail', payload: { order: 18 }, config: { queue: q } }));
    const fresh = await a.enqueue(ZEnqueueRequest.parse({ task: 'qf.detail', queue: q, fields: { idempotency_key: 'k-18' } }));
    expect([fresh.id === made.id, fresh.outcome]).toEqual([false, undefined]);
    const t = await a.getTask(made.id);
    // QueueFlow keeps a payload in a Rust HashMap: its keys come back in an order that changes
    // with each server process (random hash seeds), not in the order they were sent.
    expect(t).toMatchObject({ state: 'pending', priority: '4', deliveries: '0' });
    expect(JSON.parse(t!.raw)).toEqual({ order: 17, big: [1, 2] });
    expect(t!.payload.kwargs?.t).toBe('dict');
    const kw = t!.payload.kwargs;
    const entries = kw?.t === 'dict' ? kw.entries : [];
    expect(Object.keys(JSON.parse(t!.raw))).toEqual(entries.map(([k]) => k));
    expect(new Map(entries)).toEqual(
      new Map([
        [
          'big',
          {
            t: 'list',
            items: [
              { t: 'int', v: '1' },
              { t: 'int', v: '2' },
            ],
          },
        ],
        ['order', { t: 'int', v: '17' }],
      ]),
    );
    const field = (n: string) => t!.payload.fields.find((f) => f.name === n)?.value;
    expect(field('idempotency_key')).toEqual({ t: 'str', v: 'k-17' });
    expect(field('max_retries')).toEqual({ t: 'int', v: '7' });
    expect(await a.getResult(made.id)).toBeNull();
    const r = await a.revoke([made.id]);
    expect(r.succeeded.map((o) => o.id)).toEqual([made.id]);
    expect(await a.getTask(made.id)).toBeNull();
    expect(await a.getResult(made.id)).toMatchObject({
      id: made.id,
      status: 'CANCELLED',
      excMessage: 'cancelled by user',
      name: 'qf.detail',
    });
    const results = await a.listResults({ status: 'CANCELLED', limit: 50 });
    expect(results.items.map((x) => x.id)).toContain(made.id);
  });

  it('lists every finished job (completed, failed, cancelled) newest first without a status, and one status with it', async () => {
    const a = adapter();
    // completed by the server's own workers (builtin `echo`), failed by a worker, cancelled here
    const done = await seed().enqueue({ task: 'echo', queue: s!.inprocQueue, kwargs: { n: 1 } });
    await until(
      'the echo job to complete',
      async () => (await call<{ status: string }>(s!, 'GET', `/api/v1/jobs/${done}`)).body.status === 'completed',
    );
    const letter = await seed().deadLetter({ task: 'qf.res', queue: uniqueQueue('qfres'), reason: 'no' });
    const failed = (await a.getDead(letter))!.payload.id!;
    const cancelled = await seed().enqueue({ task: 'qf.res', queue: uniqueQueue('qfres') });
    expect((await a.revoke([cancelled])).succeeded).toHaveLength(1);
    const mine = new Set([done, failed, cancelled]);
    const ours = (items: Array<{ id: string; status: string }>) => items.filter((r) => mine.has(r.id)).map((r) => [r.id, r.status]);
    const all = await a.listResults({ status: undefined, limit: 100 });
    expect(ours(all.items)).toEqual([
      [cancelled, 'CANCELLED'],
      [failed, 'FAILED'],
      [done, 'COMPLETED'],
    ]);
    // Paged two at a time: the same rows in the same order.
    const paged: Array<{ id: string; status: string }> = [];
    let cursor: string | undefined;
    do {
      const page = await a.listResults({ status: undefined, limit: 2, cursor });
      paged.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && paged.length < all.items.length);
    expect(paged.slice(0, all.items.length).map((r) => r.id)).toEqual(all.items.map((r) => r.id));
    expect(ours((await a.listResults({ status: 'FAILED', limit: 100 })).items)).toEqual([[failed, 'FAILED']]);
    expect((await a.listResults({ status: 'PENDING', limit: 100 })).items).toEqual([]);
  });

  it("cancels waiting jobs, refuses running ones and reports finished or unknown ids; purge is QueueFlow's bulk cancel", async () => {
    const a = adapter();
    const q = uniqueQueue('qfc');
    const keep = uniqueQueue('qfk');
    const [running, waiting, later] = await seed().enqueueMany([
      { task: 'qf.c', queue: q, priority: 9 },
      { task: 'qf.c', queue: q },
      { task: 'qf.c', queue: q, countdown: 600 },
    ]);
    expect(await seed().claim(q)).toBe(running);
    const r = await a.revoke([waiting!, running!, 'no-such-job']);
    expect(r.succeeded.map((o) => o.id)).toEqual([waiting]);
    expect(r.failed.map((o) => [o.id, o.outcome])).toEqual([
      [running, 'running'],
      ['no-such-job', 'missing'],
    ]);
    expect(await seed().jobState(running!)).toBe('running');
    expect((await a.revoke([waiting!])).failed[0]).toMatchObject({ outcome: 'missing', message: 'the job is already cancelled' });
    const other = await seed().enqueue({ task: 'qf.c', queue: keep });
    const more = await seed().enqueueMany([
      { task: 'qf.c', queue: q },
      { task: 'qf.c', queue: q },
    ]);
    expect((await a.purge(q)).removed).toBe(3);
    for (const id of [later!, ...more]) expect(await seed().jobState(id)).toBeNull();
    expect(await seed().jobState(running!)).toBe('running');
    expect(await seed().jobState(other)).toBe('pending');
  });

  it('creates jobs with its settings and maps its validation errors onto the form fields', async () => {
    const a = adapter();
    const q = uniqueQueue('qfe');
    const runAt = new Date(Date.now() + 120_000).toISOString();
    const later = await a.enqueue(ZEnqueueRequest.parse({ task: 'qf.e', queue: q, fields: { run_at: runAt, payload: '{"x": 1}' } }));
    expect(later.state).toBe('scheduled');
    expect((await a.getTask(later.id))!.runAt! > new Date(Date.now() + 60_000).toISOString()).toBe(true);
    for (const [field, value] of [
      ['max_retries', '1001'],
      ['timeout', '0'],
      ['retry_backoff', 'sometimes'],
      ['jitter_factor', '2'],
      ['payload', '[1]'],
      ['payload', 'not json'],
      ['run_at', '2030-01-01T00:00:00'],
      ['retries', '1'],
    ] as const) {
      const err = await failure(a.enqueue(ZEnqueueRequest.parse({ task: 'qf.e', queue: q, fields: { [field]: value } })));
      expect(isConsoleError(err) && [err.code, Object.keys(err.fields ?? {})]).toEqual(['InvalidInput', [field]]);
    }
    const preview = await a.previewEnqueue(
      ZEnqueueRequest.parse({ task: 'qf.e', queue: q, fields: { payload: '{"x": 2}', priority: '0' } }),
    );
    expect(JSON.parse(preview.payload)).toEqual({ task_name: 'qf.e', payload: { x: 2 }, config: { queue: q, priority: 0 } });
    expect((await a.getTask(later.id))?.payload.fields.find((f) => f.name === 'priority')?.value).toEqual({ t: 'int', v: '0' });
  });

  it('keeps a replayed letter, marked with its job; a second replay is "already replayed as job X"', async () => {
    const a = adapter();
    const q = uniqueQueue('qfr');
    const letter = await seed().deadLetter({ task: 'qf.r', queue: q, reason: 'refused: n=1' });
    const before = (await a.overview()).queues.find((x) => x.name === q)!;
    expect(before.dead).toBe(1);
    const first = await a.replayDead([letter]);
    const job = first.succeeded[0]!.taskId!;
    expect(await seed().jobState(job)).toBe('pending');
    // The letter declares its replay off, and the server refuses it again in the same words.
    const why = `already replayed as job ${job}; QueueFlow replays a letter once`;
    const second = await a.replayDead([letter]);
    expect(second.failed).toEqual([{ id: letter, outcome: 'already', message: why, taskId: job }]);
    const listed = (await a.listDead(ZDeadListQuery.parse({ queue: q }))).items;
    expect(listed.map((d) => [d.id, d.cause, d.replayed?.taskId, d.unavailable?.replay])).toEqual([[letter, 'non_retryable', job, why]]);
    expect((await a.getDead(letter))!.payload.task).toBe('qf.r');
    expect((await a.getDead(letter))!.unavailable).toEqual({ replay: why });
    const after = (await a.overview()).queues.find((x) => x.name === q)!;
    expect([after.dead, after.counts?.pending]).toEqual([0, 1]);
  });

  it('counts pending and retrying jobs per queue exactly, from the retrying list or counted per queue alike', async () => {
    const q = uniqueQueue('qfc');
    const job = (body: Record<string, unknown>) =>
      call<{ job_id: string }>(s!, 'POST', '/api/v1/jobs', { body: { task_name: 'qf.c', payload: {}, ...body } }).then(
        (r) => r.body.job_id,
      );
    for (let i = 0; i < 3; i++) await job({ config: { queue: q } });
    await job({ config: { queue: q }, run_at: new Date(Date.now() + 3_600_000).toISOString() });
    // Two retrying jobs (one due in a second, one in an hour) and one running: leased by a worker,
    // failed retryably or kept.
    const retryable = async (delay: number) => {
      const id = await job({
        config: { queue: q, priority: 9, max_retries: 3, retry_delay_secs: delay, retry_backoff: 'fixed', jitter_factor: 0 },
      });
      const lease = await call<{ jobs: Array<{ job: { id: string }; lease_token: string }> }>(s!, 'POST', `/api/v1/queues/${q}/lease`, {
        token: s!.workerToken,
        body: { max_jobs: 1, lease_secs: 600, wait_secs: 0 },
      });
      const l = lease.body.jobs[0]!;
      expect(l.job.id).toBe(id);
      const r = await call(s!, 'POST', `/api/v1/jobs/${id}/fail`, {
        token: s!.workerToken,
        body: { lease_token: l.lease_token, error: 'again', retryable: true },
      });
      expect(r.status).toBe(204);
    };
    await retryable(1);
    await retryable(3600);
    await job({ config: { queue: q, priority: 9 } });
    expect(
      (await call(s!, 'POST', `/api/v1/queues/${q}/lease`, { token: s!.workerToken, body: { max_jobs: 1, lease_secs: 600, wait_secs: 0 } }))
        .status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));

    const client = createQfClient({ url: s!.url, token: s!.token, timeoutMs: 8000 });
    const tallied = (await queueStats(client)).find((x) => x.name === q)!;
    const counted = (await queueStats(client, 0)).find((x) => x.name === q)!;
    // The server counts 4 claimable (3 pending and the due retry) and 2 not due yet (the
    // job run in an hour and the retry in an hour); each is shown in its own state.
    const counts = { pending: 3, scheduled: 1, retrying: 2, running: 1 };
    expect(tallied).toMatchObject({ claimable: 4, counts });
    expect(counted).toMatchObject({ claimable: 4, counts });
    expect(counted.capped).toBeUndefined();
    const shown = (await adapter().overview()).queues.find((x) => x.name === q)!;
    expect(shown.counts).toEqual(counts);
    expect(shown).not.toHaveProperty('claimable');
  });

  it('shows a paused queue as QueueFlow reports it, and pauses and resumes one: a worker leases nothing meanwhile', async () => {
    const q = uniqueQueue('qfp');
    const id = await seed().enqueue({ task: 'qf.p', queue: q });
    expect((await call(s!, 'POST', `/api/v1/queues/${q}/pause`, { body: {} })).status).toBe(200);
    expect((await adapter().overview()).queues.find((x) => x.name === q)?.paused).toBe(true);
    expect((await call(s!, 'POST', `/api/v1/queues/${q}/resume`, { body: {} })).status).toBe(200);
    const a = adapter();
    expect(await a.setQueuePaused!(q, true)).toEqual({ brokerId: 'qf', queue: q, paused: true, pending: 1, running: 0 });
    expect((await a.overview()).queues.find((x) => x.name === q)?.paused).toBe(true);
    expect(await seed().claim(q)).toBeNull();
    expect((await a.setQueuePaused!(q, false)).paused).toBe(false);
    expect(await seed().claim(q)).toBe(id);
    const refused = await failure(adapter(s!.tokenRo).setQueuePaused!(q, true));
    expect(isConsoleError(refused) && refused.code).toBe('Forbidden');
  });

  it("turns the server's refusals into typed errors without the token, and a read-only token into a read-only broker", async () => {
    // QueueFlow's 401 is the broker refusing the console's token, not the operator's sign-in.
    const bad = await failure(adapter('not-a-key').overview());
    expect(isConsoleError(bad) && [bad.code, bad.status]).toEqual(['BrokerUnavailable', 503]);
    expect((bad as Error).message).toMatch(/^QueueFlow refused the console's token \(401 unauthorized\)/);
    const worker = await failure(adapter(s!.workerToken).overview());
    expect(isConsoleError(worker) && [worker.code, worker.status]).toEqual(['BrokerUnavailable', 503]);
    expect((worker as Error).message).toMatch(/^QueueFlow refused the console's token \(403 access denied\)/);
    expect(String((bad as Error).message)).not.toContain('not-a-key');
    const ro = adapter(s!.tokenRo);
    const caps = await ro.capabilities();
    expect([caps.replay.on, caps.replay.code, caps.enqueue.on, caps.browseDead.on]).toEqual([false, 'Forbidden', false, true]);
    expect((await ro.overview()).readOnly).toBe(true);
    const refused = await failure(ro.enqueue(ZEnqueueRequest.parse({ task: 'qf.x', queue: uniqueQueue('qfro') })));
    expect(isConsoleError(refused) && refused.code).toBe('Forbidden');
    // Another tenant's letter is not there for this token.
    const theirs = await queueflowSeeder({ ...s!, token: s!.tokenB }).deadLetter({ task: 'qf.b', queue: uniqueQueue('qfb'), reason: 'x' });
    expect(await adapter().getDead(theirs)).toBeNull();
    expect((await adapter().replayDead([theirs])).failed[0]?.outcome).toBe('error');
  });

  it('reports a server that does not answer as a timeout, and one that is down as unavailable', async () => {
    const hung = net.createServer(() => undefined); // accepts, never answers
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const port = (hung.address() as net.AddressInfo).port;
    try {
      const t0 = Date.now();
      const slow = await failure(adapter(s!.token, `http://127.0.0.1:${port}`, 500).overview());
      expect(isConsoleError(slow) && slow.code).toBe('BrokerTimeout');
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      hung.close();
    }
    const down = await failure(adapter(s!.token, `http://127.0.0.1:${port}`, 500).overview());
    expect(isConsoleError(down) && [down.code, down.message.includes(s!.token)]).toEqual(['BrokerUnavailable', false]);
  });
});
