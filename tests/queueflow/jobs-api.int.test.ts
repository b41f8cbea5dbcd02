// QueueFlow's job, queue and auth API against the REAL server (scripts/queueflow.sh), with the
// REAL Python client 0.5.0 as producer and worker: cancel (a cancelled pending job never runs, a
// terminal one gives 409), bulk cancel, queue counts, pause/resume, GET /api/v1/jobs cursors,
// and the exact error answers (401/403/404/409/400/422/415) the console will map. Observed bodies
// are recorded in docs/systems/queueflow.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, produce, PyWorker, signJwt, startQueueflow, uniqueQueue, until, type QueueflowServer } from './support';

interface Job {
  id: string;
  status: string;
  queue_name: string;
  task_name: string;
  payload: Record<string, unknown>;
  scheduled_at: string;
  error_message?: string;
  completed_at?: string;
  idempotency_key?: string;
}
interface JobPage {
  jobs: Job[];
  total?: number;
  limit: number;
  offset: number;
  has_more: boolean;
  next_cursor?: string;
}
interface QueueStats {
  queue: string;
  pending: number;
  scheduled: number;
  running: number;
  oldest_pending_age_secs?: number;
  paused: boolean;
}
interface ErrorBody {
  error: string;
  timestamp: string;
}

const s = startQueueflow();
const QRUN = uniqueQueue('qfrun'); // has a Python worker
const QIDLE = uniqueQueue('qfidle'); // has none: its jobs stay where they are
let worker: PyWorker;

const srv = (): QueueflowServer => {
  if (!s) throw new Error('no server');
  return s;
};
const logs = () => `python worker:\n${worker?.log.slice(-1500) ?? ''}\nserver:\n${srv().log().slice(-1500)}`;
const job = async (id: string) => (await call<Job>(srv(), 'GET', `/api/v1/jobs/${id}`)).body;
const status = async (id: string) => (await job(id)).status;
const queueStats = async (q: string) =>
  (await call<{ queues: QueueStats[] }>(srv(), 'GET', '/api/v1/queues')).body.queues.find((x) => x.queue === q);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inSecs = (n: number) => new Date(Date.now() + n * 1000).toISOString();
const expectError = (r: { status: number; body: unknown; contentType: string | null }, code: number, message: string) => {
  expect(r.status).toBe(code);
  expect(r.contentType).toContain('application/json');
  const b = r.body as ErrorBody;
  expect(Object.keys(b).sort()).toEqual(['error', 'timestamp']);
  expect(b.error).toBe(message);
  expect(Number.isNaN(Date.parse(b.timestamp))).toBe(false);
};

beforeAll(() => {
  if (!s) return;
  worker = new PyWorker(s, QRUN, 4); // heartbeats every 2 s
  worker.start();
});

afterAll(async () => {
  await worker?.stop();
  s?.stop();
});

describe.skipIf(!s)(`QueueFlow ${s?.version ?? ''} jobs, queues and auth`, () => {
  it('answers /health without a token, with the server version', async () => {
    const r = await call<{ status: string; version: string; timestamp: string }>(srv(), 'GET', '/health', { token: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'healthy', version: srv().version });
  });

  it('counts pending, scheduled and running per queue, with the oldest pending age', async () => {
    produce(
      srv(),
      [0, 1, 2].map((n) => ({ task: 'qf.ok', payload: { n }, queue: QIDLE })),
    );
    produce(srv(), [{ task: 'qf.ok', payload: { n: 9 }, queue: QIDLE, run_at: inSecs(3600) }]);
    await sleep(1100);
    const q = await queueStats(QIDLE);
    expect(q).toMatchObject({ queue: QIDLE, pending: 3, scheduled: 1, running: 0, paused: false });
    expect(Object.keys(q!).sort()).toEqual(['oldest_pending_age_secs', 'paused', 'pending', 'queue', 'running', 'scheduled']);
    expect(q!.oldest_pending_age_secs).toBeGreaterThanOrEqual(1);
    // Another tenant does not see this tenant's queue.
    const other = (await call<{ queues: QueueStats[] }>(srv(), 'GET', '/api/v1/queues', { token: srv().tokenB })).body.queues;
    expect(other.find((x) => x.queue === QIDLE)).toBeUndefined();
  });

  it('pages GET /api/v1/jobs with next_cursor, without repeats, in both orders', async () => {
    const all = (await call<JobPage>(srv(), 'GET', `/api/v1/jobs?queue=${QIDLE}&include_total=true`)).body;
    expect(all.total).toBe(4);
    expect(all.has_more).toBe(false);
    expect(all.next_cursor).toBeUndefined();
    for (const order of ['created_at DESC', 'created_at ASC']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const qs = new URLSearchParams({ queue: QIDLE, limit: '3', order_by: order, ...(cursor ? { cursor } : {}) });
        const p = (await call<JobPage>(srv(), 'GET', `/api/v1/jobs?${qs}`)).body;
        seen.push(...p.jobs.map((j) => j.id));
        if (!p.next_cursor) break;
        expect(p.has_more).toBe(true);
        expect(p.next_cursor).toMatch(/^\d+:[0-9a-f-]{36}$/); // "<created_at µs>:<job id>"
        cursor = p.next_cursor;
      }
      expect(seen.length).toBe(4);
      expect(new Set(seen).size).toBe(4);
      const ids = all.jobs.map((j) => j.id);
      expect(seen).toEqual(order === 'created_at DESC' ? ids : [...ids].reverse());
    }
    // status filters; a cursor the server did not make is a 400
    expect((await call<JobPage>(srv(), 'GET', `/api/v1/jobs?queue=${QIDLE}&status=pending`)).body.jobs.length).toBe(4);
    expectError(await call(srv(), 'GET', `/api/v1/jobs?cursor=garbage`), 400, 'validation error: invalid cursor');
    // What the server does not check: an unknown status lists nothing, a limit over 100 is cut to 100.
    expect((await call<JobPage>(srv(), 'GET', `/api/v1/jobs?queue=${QIDLE}&status=bogus`)).body.jobs).toEqual([]);
    expect((await call<JobPage>(srv(), 'GET', `/api/v1/jobs?limit=500`)).body.limit).toBe(100);
    const badDate = await call<string>(srv(), 'GET', '/api/v1/jobs?created_after=yesterday');
    expect([badDate.status, badDate.body]).toEqual([
      400,
      'Failed to deserialize query string: created_after: input contains invalid characters',
    ]);
  });

  it('cancels a pending job so that it never runs, and answers 409 for a terminal one', async () => {
    const [later] = produce(srv(), [{ task: 'qf.ok', payload: { n: 'later' }, queue: QRUN, run_at: inSecs(6) }]).map((j) => j.id) as [
      string,
    ];
    const c = await call(srv(), 'POST', `/api/v1/jobs/${later}/cancel`);
    expect(c.status).toBe(204);
    expect(c.body).toBeNull();
    expect(await job(later)).toMatchObject({ status: 'cancelled', error_message: 'cancelled by user' });
    // A job created after it, due at the same time, runs: the worker was there all along.
    const [control] = produce(srv(), [{ task: 'qf.ok', payload: { n: 'control' }, queue: QRUN, run_at: inSecs(6) }]).map((j) => j.id) as [
      string,
    ];
    await until('the control job to run', async () => (await status(control)) === 'completed', 30_000, logs);
    await sleep(1500);
    expect(worker.runs(later)).toEqual([]);
    expect(await status(later)).toBe('cancelled');

    expectError(await call(srv(), 'POST', `/api/v1/jobs/${later}/cancel`), 409, 'conflict: job is already cancelled');
    expectError(await call(srv(), 'POST', `/api/v1/jobs/${control}/cancel`), 409, 'conflict: job is already completed');
    expect(await status(control)).toBe('completed');
  });

  it("cancels a running job: the worker's next heartbeat sees it and nothing overwrites the cancel", async () => {
    const [slow] = produce(srv(), [{ task: 'qf.slow', queue: QRUN }]).map((j) => j.id) as [string];
    await until('the slow job to start', () => worker.runs(slow).length > 0, 30_000, logs);
    expect(await status(slow)).toBe('running');
    expect((await call(srv(), 'POST', `/api/v1/jobs/${slow}/cancel`)).status).toBe(204);
    await until('the worker to notice the cancel', () => worker.runs(slow).some((r) => r.outcome === 'saw-cancel'), 15_000, logs);
    await sleep(1000);
    expect(await job(slow)).toMatchObject({ status: 'cancelled', error_message: 'cancelled by user' });
    expect(worker.runs(slow).map((r) => r.outcome)).toEqual(['started', 'saw-cancel']);
  });

  it('bulk-cancels matching non-terminal jobs of a queue and refuses a terminal status filter', async () => {
    const noBody = await call<string>(srv(), 'POST', '/api/v1/jobs/cancel');
    expect([noBody.status, noBody.body]).toEqual([415, 'Expected request with `Content-Type: application/json`']); // even "all" needs a JSON body ({})
    expectError(
      await call(srv(), 'POST', '/api/v1/jobs/cancel', { body: { queue: QIDLE, status: 'completed' } }),
      400,
      "validation error: status must be one of pending, retrying, running (got 'completed')",
    );
    const one = await call<{ cancelled: number }>(srv(), 'POST', '/api/v1/jobs/cancel', { body: { queue: QIDLE, limit: 1 } });
    expect(one).toMatchObject({ status: 200, body: { cancelled: 1 } });
    const rest = await call<{ cancelled: number }>(srv(), 'POST', '/api/v1/jobs/cancel', { body: { queue: QIDLE } });
    expect(rest.body).toEqual({ cancelled: 3 }); // the scheduled (future run_at) one included
    const left = (await call<JobPage>(srv(), 'GET', `/api/v1/jobs?queue=${QIDLE}&status=cancelled`)).body.jobs;
    expect(left.length).toBe(4);
    expect(await queueStats(QIDLE)).toMatchObject({ pending: 0, scheduled: 0, running: 0 }); // still listed: it was enqueued to
  });

  it('pauses a queue (its jobs wait) and resumes it (they run)', async () => {
    const p = await call<{ queue: string; paused: boolean; running: number; pending: number }>(
      srv(),
      'POST',
      `/api/v1/queues/${QRUN}/pause`,
    );
    expect(p.status).toBe(200);
    expect(p.body).toEqual({ queue: QRUN, paused: true, running: 0, pending: 0 });
    const [held, doomed] = produce(srv(), [
      { task: 'qf.ok', payload: { n: 'held' }, queue: QRUN },
      { task: 'qf.ok', payload: { n: 'doomed' }, queue: QRUN },
    ]).map((j) => j.id) as [string, string];
    // a claimable (not future-dated) pending job, cancelled while it waits, never runs either
    expect((await call(srv(), 'POST', `/api/v1/jobs/${doomed}/cancel`)).status).toBe(204);
    await sleep(3000);
    expect(await status(held)).toBe('pending');
    expect(worker.runs(held)).toEqual([]);
    expect(await queueStats(QRUN)).toMatchObject({ paused: true, pending: 1 });
    const again = await call(srv(), 'POST', `/api/v1/queues/${QRUN}/pause`);
    expect(again.status).toBe(200); // idempotent
    const r = await call<{ paused: boolean }>(srv(), 'POST', `/api/v1/queues/${QRUN}/resume`);
    expect(r.body).toMatchObject({ queue: QRUN, paused: false });
    await until('the held job to run', async () => (await status(held)) === 'completed', 30_000, logs);
    await sleep(1000);
    expect(worker.runs(doomed)).toEqual([]);
    expect(await status(doomed)).toBe('cancelled');
    // pausing a queue nobody enqueued to is accepted too (it registers the name)
    const fresh = uniqueQueue('qfnew');
    expect((await call(srv(), 'POST', `/api/v1/queues/${fresh}/pause`)).status).toBe(200);
    expect(await queueStats(fresh)).toMatchObject({ paused: true, pending: 0 });
    expectError(
      await call(srv(), 'POST', `/api/v1/queues/${'x'.repeat(129)}/pause`),
      400,
      'validation error: queue name must be 1..=128 bytes',
    );
  });

  it('runs a job created over HTTP (as the console will) in the real worker, with its payload', async () => {
    const payload = { n: 'http', text: 'ünïcode ✓', nested: { list: [1, 2.5, null, true], empty: {} } };
    const r = await call<{ job_id: string }>(srv(), 'POST', '/api/v1/jobs', {
      body: { task_name: 'qf.ok', payload, config: { queue: QRUN } },
    });
    expect(r.status).toBe(201);
    await until('the created job to run', async () => (await status(r.body.job_id)) === 'completed', 30_000, logs);
    expect(worker.runs(r.body.job_id)).toMatchObject([{ task: 'qf.ok', outcome: 'ok', payload }]);
    expect((await call<{ result: unknown }>(srv(), 'GET', `/api/v1/jobs/${r.body.job_id}`)).body.result).toEqual({ echo: payload });
  });

  it('creates a job idempotently by key, and shows its detail', async () => {
    const body = {
      task_name: 'qf.ok',
      payload: { n: 'idem', nested: { a: [1, 2] } },
      config: { queue: QIDLE, priority: 5, max_retries: 2, timeout: 30 },
    };
    const a = await call<{ job_id: string }>(srv(), 'POST', '/api/v1/jobs', { body, headers: { 'idempotency-key': 'k-1' } });
    const b = await call<{ job_id: string }>(srv(), 'POST', '/api/v1/jobs', { body, headers: { 'idempotency-key': 'k-1' } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.job_id).toBe(a.body.job_id);
    const j = await job(a.body.job_id);
    expect(j).toMatchObject({
      status: 'pending',
      queue_name: QIDLE,
      task_name: 'qf.ok',
      payload: body.payload,
      idempotency_key: 'k-1',
      tenant_id: srv().tenant,
      config: { priority: 5, max_retries: 2, timeout_secs: 30, retry_backoff: 'exponential', retry_delay_secs: 60 },
    });
    expect(Object.keys(j).sort()).toEqual([
      'config',
      'created_at',
      'delivery_count',
      'id',
      'idempotency_key',
      'metadata',
      'payload',
      'queue_name',
      'retry_count',
      'scheduled_at',
      'status',
      'task_name',
      'tenant_id',
    ]);
    // The same key under another tenant is another job.
    const other = await call<{ job_id: string }>(srv(), 'POST', '/api/v1/jobs', {
      body,
      token: srv().tokenB,
      headers: { 'idempotency-key': 'k-1' },
    });
    expect(other.body.job_id).not.toBe(a.body.job_id);
  });

  it('answers validation errors of POST /api/v1/jobs: 400 JSON from the server, 422/400/415 plain text from its JSON extractor', async () => {
    expectError(await call(srv(), 'POST', '/api/v1/jobs', { body: { task_name: '  ' } }), 400, 'validation error: task_name is required');
    expectError(
      await call(srv(), 'POST', '/api/v1/jobs', { body: { task_name: 'qf.ok', config: { max_retries: 1001 } } }),
      400,
      'validation error: max_retries must be <= 1000 (got 1001)',
    );
    // Queue names are validated by pause/resume only: create takes a name that pause then refuses.
    const spaced = await call<{ job_id: string }>(srv(), 'POST', '/api/v1/jobs', {
      body: { task_name: 'qf.ok', config: { queue: 'has space' } },
    });
    expect(spaced.status).toBe(201);
    expect((await job(spaced.body.job_id)).queue_name).toBe('has space');
    expectError(
      await call(srv(), 'POST', `/api/v1/queues/${encodeURIComponent('has space')}/pause`),
      400,
      'validation error: queue name must not contain whitespace or control characters',
    );
    expectError(
      await call(srv(), 'POST', '/api/v1/jobs', { body: { task_name: 'qf.ok', config: { timeout: 0 } } }),
      400,
      'validation error: timeout_secs must be within 1..=86400 (got 0)',
    );

    const missing = await call<string>(srv(), 'POST', '/api/v1/jobs', { body: { payload: {} } });
    expect(missing.status).toBe(422);
    expect(missing.contentType).toContain('text/plain');
    expect(missing.body).toMatch(/^Failed to deserialize the JSON body into the target type: missing field `task_name`/);
    const badRunAt = await call<string>(srv(), 'POST', '/api/v1/jobs', { body: { task_name: 'qf.ok', run_at: 'tomorrow' } });
    expect(badRunAt.status).toBe(422);
    expect(badRunAt.body).toMatch(/^Failed to deserialize the JSON body into the target type: run_at: /);
    const badPayload = await call<string>(srv(), 'POST', '/api/v1/jobs', { body: { task_name: 'qf.ok', payload: [1] } });
    expect(badPayload.status).toBe(422);
    expect(badPayload.body).toMatch(/^Failed to deserialize the JSON body into the target type: payload: /);
    const notJson = await call<string>(srv(), 'POST', '/api/v1/jobs', { rawBody: '{"task_name":' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatch(/^Failed to parse the request body as JSON/);
    const noType = await call<string>(srv(), 'POST', '/api/v1/jobs', {
      rawBody: '{"task_name":"qf.ok"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(noType.status).toBe(415);
    expect(noType.body).toBe('Expected request with `Content-Type: application/json`');
  });

  it('answers 401 for a missing or unknown token and 403 for the wrong class of credential', async () => {
    expectError(await call(srv(), 'GET', '/api/v1/jobs', { token: null }), 401, 'unauthorized');
    expectError(await call(srv(), 'GET', '/api/v1/jobs', { token: 'not-a-key' }), 401, 'unauthorized');
    expectError(await call(srv(), 'GET', '/api/v1/queues', { token: srv().workerToken }), 403, 'access denied');
    // worker routes: a tenant key is 403, an unknown token 401
    expectError(await call(srv(), 'POST', `/api/v1/queues/${QRUN}/lease`, { body: { max_jobs: 1, wait_secs: 0 } }), 403, 'access denied');
    expectError(
      await call(srv(), 'POST', `/api/v1/queues/${QRUN}/lease`, { token: 'not-a-key', body: { max_jobs: 1 } }),
      401,
      'unauthorized',
    );
    // a read-only key reads and is refused every write
    expect((await call(srv(), 'GET', '/api/v1/whoami', { token: srv().tokenRo })).body).toEqual({
      tenant: srv().tenant,
      access: 'read_only',
    });
    expect((await call(srv(), 'GET', '/api/v1/whoami')).body).toEqual({ tenant: srv().tenant, access: 'read_write' });
    expect((await call(srv(), 'GET', `/api/v1/jobs?queue=${QIDLE}`, { token: srv().tokenRo })).status).toBe(200);
    expectError(await call(srv(), 'POST', '/api/v1/jobs', { token: srv().tokenRo, body: { task_name: 'qf.ok' } }), 403, 'access denied');
    expectError(await call(srv(), 'POST', `/api/v1/queues/${QRUN}/pause`, { token: srv().tokenRo }), 403, 'access denied');
  });

  it('takes HS256 JWTs as tenant credentials: sub is the tenant, exp is required, scope read alone is read-only', async () => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = (claims: Record<string, unknown>, secret = srv().jwtSecret) => signJwt(secret, claims);
    expect((await call(srv(), 'GET', '/api/v1/whoami', { token: jwt({ sub: 'initech', exp: now + 300 }) })).body).toEqual({
      tenant: 'initech',
      access: 'read_write',
    });
    expect((await call(srv(), 'GET', '/api/v1/whoami', { token: jwt({ sub: srv().tenant, exp: now + 300, scope: 'read' }) })).body).toEqual(
      { tenant: srv().tenant, access: 'read_only' },
    );
    expect(
      (await call(srv(), 'GET', '/api/v1/whoami', { token: jwt({ sub: srv().tenant, exp: now + 300, scope: 'read write' }) })).body,
    ).toEqual({ tenant: srv().tenant, access: 'read_write' });
    // A JWT for tenant A sees tenant A's jobs (the same tenant as its API key).
    const viaJwt = (
      await call<JobPage>(srv(), 'GET', `/api/v1/jobs?queue=${QIDLE}&limit=100`, { token: jwt({ sub: srv().tenant, exp: now + 300 }) })
    ).body.jobs.length;
    expect(viaJwt).toBe((await call<JobPage>(srv(), 'GET', `/api/v1/jobs?queue=${QIDLE}&limit=100`)).body.jobs.length);
    expect(viaJwt).toBeGreaterThan(0);
    expectError(
      await call(srv(), 'POST', '/api/v1/jobs', {
        token: jwt({ sub: srv().tenant, exp: now + 300, scope: 'read' }),
        body: { task_name: 'qf.ok' },
      }),
      403,
      'access denied',
    );
    expectError(await call(srv(), 'GET', '/api/v1/whoami', { token: jwt({ sub: 'initech', exp: now - 3600 }) }), 401, 'unauthorized'); // expired
    expectError(await call(srv(), 'GET', '/api/v1/whoami', { token: jwt({ sub: 'initech' }) }), 401, 'unauthorized'); // no exp
    expectError(
      await call(srv(), 'GET', '/api/v1/whoami', { token: jwt({ sub: 'initech', exp: now + 300 }, 'another-secret') }),
      401,
      'unauthorized',
    );
  });

  it("answers 404 for unknown ids and 403 for another tenant's", async () => {
    expectError(
      await call(srv(), 'GET', '/api/v1/jobs/00000000-0000-4000-8000-000000000000'),
      404,
      'job not found: 00000000-0000-4000-8000-000000000000',
    );
    expectError(
      await call(srv(), 'POST', '/api/v1/jobs/00000000-0000-4000-8000-000000000000/cancel'),
      404,
      'job not found: 00000000-0000-4000-8000-000000000000',
    );
    expectError(await call(srv(), 'GET', '/api/v1/dlq/999999999'), 404, 'dead letter not found: 999999999');
    expectError(await call(srv(), 'POST', '/api/v1/dlq/999999999/replay'), 404, 'dead letter not found: 999999999');
    const notInt = await call<string>(srv(), 'GET', '/api/v1/dlq/abc');
    expect(notInt.status).toBe(400);
    expect(notInt.body).toMatch(/^Invalid URL: Cannot parse `abc` to a `i64`/);
    const [mine] = produce(srv(), [{ task: 'qf.ok', queue: QIDLE }]).map((j) => j.id) as [string];
    expectError(await call(srv(), 'GET', `/api/v1/jobs/${mine}`, { token: srv().tokenB }), 403, 'access denied');
    expectError(await call(srv(), 'POST', `/api/v1/jobs/${mine}/cancel`, { token: srv().tokenB }), 403, 'access denied');
    expect(await status(mine)).toBe('pending');
  });

  it('has no rate limit: 60 quick requests never answer 429', async () => {
    const codes = await Promise.all(Array.from({ length: 60 }, () => call(srv(), 'GET', '/api/v1/queues').then((r) => r.status)));
    expect(new Set(codes)).toEqual(new Set([200]));
  });
});
