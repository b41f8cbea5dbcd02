// The edit-replay pause lease on the REAL QueueFlow 0.6.0 server with REAL Python workers, and
// REAL console processes (tests/queueflow/edit-child.ts, the console's own replayEditedQf) on
// one SQLite state file: a console SIGKILLed mid-edit leaves a lease that the next overview
// recovers (the edit finished, the queue resumed, an audit entry); a queue paused by someone
// else before is never resumed; two consoles editing letters of one queue at once take turns,
// each edit runs exactly once and no unedited copy runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAuditStore } from '@/lib/audit/store';
import { ZAuditQuery } from '@/lib/audit/types';
import type { TypedValue } from '@/lib/brokers/schema';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import { getPauseLeaseStore } from '@/lib/leases/store';
import { queueflowSeeder } from '@/tests/queueflow/seeder';
import { call, PyWorker, ROOT, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';

// Before anything opens the state store: this file's own, shared with the child consoles.
const STATE = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'qf-lease-')), 'console-state.sqlite3');
process.env.POTATOQ_CONSOLE_STATE = STATE;

const s = startQueueflow();
const run = s ? describe : describe.skip;
const to = uniqueQueue('lease-to');
const AT = '2026-12-02T10:30:00+01:00';
const edit = (n: number) => ({
  kwargs: [
    ['at', { t: 'datetime', v: AT, aware: true, epochMs: null }],
    ['n', { t: 'int', v: String(n) }],
  ] as Array<[string, TypedValue]>,
  queue: to,
});
let fresh: PyWorker;
const workers: PyWorker[] = [];

const adapter = () =>
  createQueueflowAdapter({ id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token: s!.token } }, adapterContext());
const job = async (id: string) =>
  (await call<{ status: string; queue_name: string; payload: Record<string, unknown> }>(s!, 'GET', `/api/v1/jobs/${id}`)).body;
const letter = async (id: string) => (await call<{ replay_job_id?: string }>(s!, 'GET', `/api/v1/dlq/${id}`)).body;
const paused = async (q: string) =>
  (await call<{ queues: Array<{ queue: string; paused?: boolean }> }>(s!, 'GET', '/api/v1/queues')).body.queues.find((x) => x.queue === q)
    ?.paused ?? false;
const recoveries = async (letterId: string) =>
  (await (await getAuditStore()).list(ZAuditQuery.parse({ broker: 'qf', action: 'edit-replay-recovery' }))).entries.filter((e) =>
    e.ids.includes(letterId),
  );
const logs = () => `to:\n${fresh.log.slice(-1500)}\nserver:\n${s!.log().slice(-1500)}`;

/** Letters of `qf.when` with an `at` that is no date-time, on a queue of their own; then a worker
 *  on that queue, which would record any run of QueueFlow's unedited copies. */
async function lettersOn(prefix: string, ns: number[]): Promise<{ from: string; ids: string[]; old: PyWorker }> {
  const from = uniqueQueue(prefix);
  const seed = queueflowSeeder(s!);
  const ids: string[] = [];
  for (const n of ns)
    ids.push(await seed.deadLetter({ task: 'qf.when', queue: from, kwargs: { at: 'not yet', n }, reason: 'at is not a date-time' }));
  const old = new PyWorker(s!, from);
  old.start();
  workers.push(old);
  return { from, ids, old };
}

function child(letterId: string, n: number, mode: string, env: Record<string, string> = {}) {
  const c = spawn(
    path.join(ROOT, 'node_modules/.bin/vite-node'),
    ['--config', 'vitest.config.ts', 'tests/queueflow/edit-child.ts', letterId, JSON.stringify(edit(n))],
    {
      cwd: ROOT,
      env: { ...process.env, QF_URL: s!.url, QF_TOKEN: s!.token, MODE: mode, LEASE_MS: '2000', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  c.stdout.on('data', (d: Buffer) => (out += d.toString()));
  c.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => c.on('exit', () => resolve()));
  const result = async () => {
    await exited;
    const line = out.split('\n').find((l) => l.startsWith('result '));
    if (!line) throw new Error(`the child console gave no result:\n${out.slice(-3000)}`);
    return JSON.parse(line.slice(7)) as { newId: string; outcome: { outcome: string; message: string } };
  };
  /** When it paused and resumed the queue (epoch ms, from its `step` lines). */
  const held = () => {
    const at = (suffix: string) =>
      Number(
        out
          .split('\n')
          .find((l) => l.startsWith('step ') && l.endsWith(suffix))
          ?.split(' ')[1],
      );
    return { paused: at('/pause'), resumed: at('/resume') };
  };
  return { kill: () => (c.kill('SIGKILL'), exited), out: () => out, result, held };
}

/** The jobs on the edited queue whose payload is edit(n)'s: exactly one means the edit made one job. */
async function editedJobs(n: number): Promise<string[]> {
  const r = await call<{ jobs: Array<{ id: string; payload: { n?: number } }> }>(s!, 'GET', `/api/v1/jobs?queue=${to}&limit=100`);
  const all = [...r.body.jobs];
  for (const status of ['completed', 'running', 'pending']) {
    const p = await call<{ jobs: Array<{ id: string; payload: { n?: number } }> }>(
      s!,
      'GET',
      `/api/v1/jobs?queue=${to}&status=${status}&limit=100`,
    );
    all.push(...p.body.jobs);
  }
  return [...new Set(all.filter((j) => j.payload.n === n).map((j) => j.id))];
}

beforeAll(() => {
  if (!s) return;
  fresh = new PyWorker(s, to);
  fresh.start();
});
afterAll(async () => {
  await fresh?.stop();
  for (const w of workers) await w.stop();
  s?.stop();
  fs.rmSync(path.dirname(STATE), { recursive: true, force: true });
});

run('edit-replay pause lease: QueueFlow with its real server, workers and console processes', () => {
  it.each([
    ['hang-create', 'before it created the edited job', 11],
    ['hang-cancel', "before it cancelled QueueFlow's unedited copy", 12],
  ])(
    'a console killed %s (%s): the queue shows it held, then the next overview finishes the edit, resumes the queue and audits it',
    async (mode, _when, n) => {
      const { from, ids, old } = await lettersOn('lease-kill', [n]);
      const d = ids[0]!;
      const c = child(d, n, mode);
      await until('the child console to hold the queue', async () => c.out().includes('holding'), 90_000, c.out);
      const a = adapter();
      // While it lives: paused, held, said so; Resume is refused (it would let the unedited copy run).
      expect(await paused(from)).toBe(true);
      expect((await a.overview()).warnings?.join('\n')).toContain(`Queue ${from} is paused by the console's edit-replay since`);
      const diag = await a.diagnose!({ overdueSeconds: 120, revoke: { on: true } });
      expect(diag.notes.map((x) => x.text).join('\n')).toContain(`Queue ${from} is paused by the console's edit-replay since`);
      await expect(a.setQueuePaused!(from, false)).rejects.toMatchObject({ code: 'Conflict' });

      await c.kill();
      const store = await getPauseLeaseStore();
      const left = await store.get('qf', from);
      expect(left).toMatchObject({ pausedByConsole: true, detail: { letter: d } });
      await until('its lease to run out', async () => left!.deadlineMs < Date.now(), 10_000);
      expect(await paused(from)).toBe(true); // nothing resumed it by itself

      const o = await a.overview();
      expect(o.queues.find((q) => q.name === from)?.paused).toBe(false);
      expect(o.warnings ?? []).toEqual([]);
      expect(await store.get('qf', from)).toBeNull();
      const [entry, ...more] = await recoveries(d);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ who: 'console', outcome: 'done', queue: from });
      expect(entry!.message).toContain(`queue ${from} resumed`);

      const copy = (await letter(d)).replay_job_id!;
      expect((await job(copy)).status).toBe('cancelled');
      const edited = await editedJobs(n);
      expect(edited).toHaveLength(1);
      expect(entry!.ids).toEqual([d, copy, edited[0]]);
      await until('the edited job to run', async () => fresh.runs(edited[0]!).length > 0, 40_000, logs);
      await new Promise((r) => setTimeout(r, 2000));
      expect(fresh.runs(edited[0]!)).toEqual([expect.objectContaining({ payload: { at: AT, n } })]);
      expect(old.runs(copy)).toEqual([]);
    },
    180_000,
  );

  it('never resumes a queue someone else paused before the console did: recovery finishes the edit and leaves it paused', async () => {
    const { from, ids, old } = await lettersOn('lease-before', [21]);
    const d = ids[0]!;
    expect((await call(s!, 'POST', `/api/v1/queues/${from}/pause`, { body: {} })).status).toBe(200);
    const c = child(d, 21, 'hang-cancel');
    await until('the child console to hold the queue', async () => c.out().includes('holding'), 90_000, c.out);
    await c.kill();
    const store = await getPauseLeaseStore();
    const left = await store.get('qf', from);
    expect(left).toMatchObject({ pausedByConsole: false });
    await until('its lease to run out', async () => left!.deadlineMs < Date.now(), 10_000);

    const a = adapter();
    const o = await a.overview();
    expect(await store.get('qf', from)).toBeNull();
    expect(o.queues.find((q) => q.name === from)?.paused).toBe(true);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await paused(from)).toBe(true);
    const [entry] = await recoveries(d);
    expect(entry!.message).toContain(`queue ${from} was paused before the console paused it, so it stays paused`);
    const copy = (await letter(d)).replay_job_id!;
    expect((await job(copy)).status).toBe('cancelled');
    // The operator's own pause is theirs to lift; then the queue runs and the copy still does not.
    await a.setQueuePaused!(from, false);
    await new Promise((r) => setTimeout(r, 2000));
    expect(old.runs(copy)).toEqual([]);
    expect(await editedJobs(21)).toHaveLength(1);
  }, 180_000);

  it('two console processes editing letters of one queue at once take turns: each edit runs once, no unedited copy runs', async () => {
    const { from, ids, old } = await lettersOn('lease-race', [31, 32]);
    const goAt = String(Date.now() + 8000); // both children loaded by then
    const [c1, c2] = [
      child(ids[0]!, 31, 'slow', { GO_AT: goAt, LEASE_MS: '30000' }),
      child(ids[1]!, 32, 'slow', { GO_AT: goAt, LEASE_MS: '30000' }),
    ];
    const results = await Promise.all([c1!.result(), c2!.result()]);
    for (const r of results) {
      expect(r.outcome).toMatchObject({ outcome: 'ok' });
      // Neither saw the queue paused by the other (it would then have left it paused, and the
      // other would have resumed it under its unedited copy).
      expect(r.outcome.message).not.toContain('was paused before');
    }
    // Started together, each holding the queue >= 1.5 s: the second paused it only after the first resumed it.
    const [h1, h2] = [c1!.held(), c2!.held()];
    const [first, second] = h1.paused < h2.paused ? [h1, h2] : [h2, h1];
    expect(first.resumed).toBeGreaterThan(first.paused + 1400);
    expect(second.paused).toBeGreaterThanOrEqual(first.resumed);
    for (const [i, n] of [31, 32].entries()) {
      const edited = await editedJobs(n);
      expect(edited).toEqual([results[i]!.newId]);
      await until('the edited job to run', async () => fresh.runs(edited[0]!).length > 0, 40_000, logs);
    }
    const copies = await Promise.all(ids.map(async (id) => (await letter(id)).replay_job_id!));
    for (const copy of copies) expect((await job(copy)).status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 2000));
    for (const copy of copies) expect(old.runs(copy)).toEqual([]);
    for (const r of results) expect(fresh.runs(r.newId)).toHaveLength(1);
    expect(await paused(from)).toBe(false);
    expect(await (await getPauseLeaseStore()).get('qf', from)).toBeNull();
  }, 180_000);
});
