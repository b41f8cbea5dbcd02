// QueueFlow's dead-letter queue against the REAL server (scripts/queueflow.sh) and the REAL
// Python client 0.5.0 as producer and worker: every dead-letter reason as GET /api/v1/dlq
// reports it, replay once (the new job runs in the real worker, a second replay is 409), bulk
// replay, and the DLQ's keyset cursor. What these tests pin down is what the console's adapter
// relies on; docs/systems/queueflow.md records the observed bodies.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, inspectWithClient, produce, PyWorker, startQueueflow, uniqueQueue, until, type QueueflowServer } from './support';

interface DeadLetter {
  id: number;
  job_id: string;
  queue_name?: string;
  task_name?: string;
  reason: string;
  error_message?: string;
  tenant_id?: string;
  created_at: string;
  replayed_at?: string;
  replay_job_id?: string;
}
interface DlqPage {
  dead_letters: DeadLetter[];
  total?: number;
  limit: number;
  offset: number;
  has_more: boolean;
  next_cursor?: string;
}
interface Job {
  id: string;
  status: string;
  queue_name: string;
  task_name: string;
  payload: Record<string, unknown>;
  error_message?: string;
  retry_count: number;
  delivery_count: number;
  result?: unknown;
  metadata: Record<string, unknown>;
}

const s = startQueueflow();
const Q = uniqueQueue('qfdl');
const QBULK = uniqueQueue('qfbulk');
let worker: PyWorker;
let bulkWorker: PyWorker;
const terminal = new Set(['completed', 'failed', 'cancelled']);

const srv = (): QueueflowServer => {
  if (!s) throw new Error('no server');
  return s;
};
const logs = () => `python worker:\n${worker?.log.slice(-1500) ?? ''}\nserver:\n${srv().log().slice(-1500)}`;
const job = async (id: string) => (await call<Job>(srv(), 'GET', `/api/v1/jobs/${id}`)).body;
const finished = (id: string, ms = 30_000) =>
  until(
    `job ${id} to finish`,
    async () => {
      const j = await job(id);
      return terminal.has(j.status) && j;
    },
    ms,
    logs,
  );
// The letter's `created_at` in µs: the key QueueFlow orders and pages dead letters by. Letters
// of jobs a worker fails side by side get their ids in insert order, which need not be the order
// of their timestamps, so neither "oldest first" nor "newest first" can be read off the ids.
const micros = (ts: string): bigint => {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(ts);
  if (!m) throw new Error(`not an RFC 3339 time: ${ts}`);
  return BigInt(Date.parse(`${m[1]}${m[3]}`)) * 1000n + BigInt((m[2] ?? '').padEnd(6, '0').slice(0, 6));
};
const byKey = (a: DeadLetter, b: DeadLetter) => {
  const d = micros(a.created_at) - micros(b.created_at);
  return d !== 0n ? (d < 0n ? -1 : 1) : a.id - b.id;
};
const letters = async (query: string) => (await call<DlqPage>(srv(), 'GET', `/api/v1/dlq?${query}`)).body;
const letterOf = async (jobId: string) =>
  until(
    `the dead letter of ${jobId}`,
    async () => (await letters(`queue=${Q}&limit=100`)).dead_letters.find((d) => d.job_id === jobId),
    15_000,
    logs,
  );

beforeAll(() => {
  if (!s) return;
  worker = new PyWorker(s, Q);
  worker.start();
  bulkWorker = new PyWorker(s, QBULK);
  bulkWorker.start();
});

afterAll(async () => {
  await worker?.stop();
  await bulkWorker?.stop();
  s?.stop();
});

describe.skipIf(!s)(`QueueFlow ${s?.version ?? ''} dead letters with the real Python worker`, () => {
  const ids: Record<string, string> = {};

  it('dead-letters each failure with the reason and error message the server reports', async () => {
    const [ok, fatal, flaky, noHandler] = produce(srv(), [
      { task: 'qf.ok', payload: { n: 1 }, queue: Q },
      { task: 'qf.fatal', payload: { n: 2 }, queue: Q },
      { task: 'qf.flaky', payload: { n: 3 }, queue: Q, max_retries: 1, retry_delay_secs: 1, retry_backoff: 'fixed' },
      { task: 'qf.unregistered', payload: { n: 4 }, queue: Q },
    ]).map((j) => j.id) as [string, string, string, string];
    // The server's own Rust workers (the in-process pool on its --queues) have no such task.
    const [inproc] = produce(srv(), [{ task: 'qf.unregistered', payload: { n: 5 }, queue: srv().inprocQueue }]).map((j) => j.id) as [
      string,
    ];
    Object.assign(ids, { ok, fatal, flaky, noHandler, inproc });

    const done = await finished(ok);
    expect(done).toMatchObject({ status: 'completed', result: { echo: { n: 1 } } });
    expect(worker.runs(ok).map((r) => r.outcome)).toEqual(['ok']);

    const f = await letterOf(fatal);
    expect(f).toMatchObject({
      job_id: fatal,
      queue_name: Q,
      task_name: 'qf.fatal',
      reason: 'non_retryable',
      error_message: 'refused: payload n=2 is not valid',
      tenant_id: srv().tenant,
    });
    expect(typeof f.id).toBe('number'); // BIGSERIAL, as a JSON number
    expect(Object.keys(f).sort()).toEqual([
      'created_at',
      'error_message',
      'id',
      'job_id',
      'queue_name',
      'reason',
      'task_name',
      'tenant_id',
    ]); // replayed_at / replay_job_id absent until replayed
    expect(worker.runs(fatal).length).toBe(1); // never retried

    const m = await until(
      'the retried job to dead-letter',
      async () => (await letters(`queue=${Q}&limit=100`)).dead_letters.find((d) => d.job_id === flaky),
      30_000,
      logs,
    );
    expect(m).toMatchObject({ reason: 'max_attempts_exceeded', error_message: 'still failing on delivery 2', task_name: 'qf.flaky' });
    expect(worker.runs(flaky).length).toBe(2); // max_retries 1: the first run and one retry
    expect(await job(flaky)).toMatchObject({
      status: 'failed',
      retry_count: 1,
      delivery_count: 2,
      error_message: 'still failing on delivery 2',
    });

    // The Python run_worker reports a task it has no handler for as a NON-retryable failure: the
    // server records `non_retryable`, not `handler_not_found`.
    const n = await letterOf(noHandler);
    expect(n).toMatchObject({ reason: 'non_retryable', error_message: "no worker handler for task 'qf.unregistered'" });
    expect(worker.runs(noHandler)).toEqual([]);

    // `handler_not_found` comes only from the server's own in-process workers.
    const h = await until(
      'the in-process letter',
      async () => (await letters(`queue=${srv().inprocQueue}`)).dead_letters.find((d) => d.job_id === inproc),
      20_000,
      logs,
    );
    expect(h).toMatchObject({
      reason: 'handler_not_found',
      error_message: "no handler registered for task 'qf.unregistered'",
      queue_name: srv().inprocQueue,
    });

    expect((await letters(`queue=${Q}&limit=100`)).dead_letters.find((d) => d.job_id === ok)).toBeUndefined();
    // The client's own models parse the same entries.
    const viaClient = inspectWithClient(srv(), Q).dead_letters;
    expect(viaClient.map((d) => [d.job_id, d.reason]).sort()).toEqual(
      [
        [fatal, 'non_retryable'],
        [flaky, 'max_attempts_exceeded'],
        [noHandler, 'non_retryable'],
      ].sort(),
    );
  });

  it('replays a letter once: the new job runs in the real worker, a second replay answers 409', async () => {
    const letter = await letterOf(ids.fatal!);
    // Another tenant's credential: 403 on the entry and on its replay, and an empty list.
    for (const [method, route] of [
      ['GET', `/api/v1/dlq/${letter.id}`],
      ['POST', `/api/v1/dlq/${letter.id}/replay`],
    ] as const) {
      const r = await call<{ error: string }>(srv(), method, route, { token: srv().tokenB });
      expect([r.status, r.body.error]).toEqual([403, 'access denied']);
    }
    expect((await call<DlqPage>(srv(), 'GET', `/api/v1/dlq?queue=${Q}`, { token: srv().tokenB })).body.dead_letters).toEqual([]);
    fs.writeFileSync(path.join(worker.out, 'fixed-2'), ''); // the "fix" the replay waits for
    const r = await call<{ job_id: string }>(srv(), 'POST', `/api/v1/dlq/${letter.id}/replay`);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(['job_id']);
    const fresh = r.body.job_id;
    expect(fresh).not.toBe(ids.fatal);
    const done = await finished(fresh);
    expect(done).toMatchObject({
      status: 'completed',
      queue_name: Q,
      task_name: 'qf.fatal',
      payload: { n: 2 },
      result: { fixed: 2 },
      retry_count: 0,
    });
    expect(done.metadata).toMatchObject({ replayed_from_job: ids.fatal, replayed_from_dead_letter: letter.id });
    expect(worker.runs(fresh).map((x) => x.outcome)).toEqual(['ok']);

    const after = (await call<DeadLetter>(srv(), 'GET', `/api/v1/dlq/${letter.id}`)).body;
    expect(after.replay_job_id).toBe(fresh);
    expect(Number.isNaN(Date.parse(after.replayed_at ?? ''))).toBe(false);
    expect((await job(ids.fatal!)).status).toBe('failed'); // the original stays as it was

    const again = await call<{ error: string; timestamp: string }>(srv(), 'POST', `/api/v1/dlq/${letter.id}/replay`);
    expect(again.status).toBe(409);
    expect(again.contentType).toContain('application/json');
    expect(Object.keys(again.body).sort()).toEqual(['error', 'timestamp']);
    // The message names the replay's job: "already replayed as job X" comes from the server.
    expect(again.body.error).toBe(`conflict: dead letter ${letter.id} was already replayed as job ${fresh}`);

    const replayed = (await letters(`queue=${Q}&replayed=true`)).dead_letters.map((d) => d.id);
    const unreplayed = (await letters(`queue=${Q}&replayed=false`)).dead_letters.map((d) => d.id);
    expect(replayed).toEqual([letter.id]);
    expect(unreplayed).not.toContain(letter.id);
    expect(unreplayed.length).toBe(2);
  });

  it('bulk replay takes the unreplayed letters of a queue oldest first and skips replayed ones', async () => {
    const made = produce(
      srv(),
      [10, 11, 12].map((n) => ({ task: 'qf.fatal', payload: { n }, queue: QBULK })),
    ).map((j) => j.id);
    await until('three letters', async () => (await letters(`queue=${QBULK}`)).dead_letters.length === 3, 30_000, logs);
    const listed = (await letters(`queue=${QBULK}`)).dead_letters;
    expect(listed.map((d) => d.job_id).sort()).toEqual([...made].sort());
    for (const n of [10, 11, 12]) fs.writeFileSync(path.join(bulkWorker.out, `fixed-${n}`), '');

    const r = await call<{ results: Array<{ dead_letter_id: number; job_id?: string; error?: string }>; replayed: number }>(
      srv(),
      'POST',
      '/api/v1/dlq/replay',
      { body: { queue: QBULK, limit: 2 } },
    );
    expect(r.status).toBe(200);
    expect(r.body.replayed).toBe(2);
    const oldestFirst = [...listed].sort(byKey).map((d) => d.id);
    expect(r.body.results.map((x) => x.dead_letter_id)).toEqual(oldestFirst.slice(0, 2));
    for (const x of r.body.results) expect(Object.keys(x).sort()).toEqual(['dead_letter_id', 'job_id']);

    const rest = await call<{ results: Array<{ dead_letter_id: number; job_id?: string }>; replayed: number }>(
      srv(),
      'POST',
      '/api/v1/dlq/replay',
      { body: { queue: QBULK } },
    );
    expect(rest.body.results.map((x) => x.dead_letter_id)).toEqual(oldestFirst.slice(2));
    for (const x of [...r.body.results, ...rest.body.results]) expect((await finished(x.job_id!)).status).toBe('completed');

    const none = await call<{ results: unknown[]; replayed: number }>(srv(), 'POST', '/api/v1/dlq/replay', { body: { queue: QBULK } });
    expect(none.body).toEqual({ results: [], replayed: 0 });
  });

  it('pages the dead letters newest first with next_cursor, without repeats', async () => {
    const all = await letters(`queue=${QBULK}&limit=100&include_total=true`);
    expect(all.total).toBe(3);
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const p = await letters(`queue=${QBULK}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...p.dead_letters.map((d) => d.id));
      expect(p.has_more).toBe(p.next_cursor !== undefined);
      if (!p.next_cursor) break;
      expect(p.next_cursor).toMatch(/^\d+:\d+$/); // "<created_at µs>:<dead letter id>"
      cursor = p.next_cursor;
    }
    expect(seen).toEqual(all.dead_letters.map((d) => d.id));
    expect(new Set(seen).size).toBe(3);
    // Newest first by (created_at, id), the cursor's key.
    expect(all.dead_letters.map((d) => d.id)).toEqual(
      [...all.dead_letters]
        .sort(byKey)
        .reverse()
        .map((d) => d.id),
    );
  });
});
