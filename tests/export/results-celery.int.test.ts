// Exports from Celery 5.7 on Redis with a REAL `celery worker`: the results list it fills
// (successes and failures, read from the result backend) and the ready list of a queue no worker
// takes, whose argument text (commas, quotes, line breaks, a formula) must come back from the CSV
// cell for cell and never run as a formula. Keys live under this file's own prefixes on db 7.
// int-lane: uses redis/7 (every key under its own prefixes)
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvObjects, jsonLines } from '@/tests/support/csv';
import { spawnPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { spawnCeleryWorker } from '@/tests/support/celery-worker';
import { dropKeysAt, newPrefix } from '@/tests/support/redis';
import { redisAvailable, redisDb, stopWorker, until } from '../brokers/celery/redis/support';

const up = await redisAvailable();
const URL = redisDb(7);
const P = newPrefix();
const WORK = `${P}-work`;
const HELD = `${P}-held`;
const FORMULA = `=HYPERLINK("http://x/${P}")`;
const TEXT = `a, "b"\nnext line`;
const out = mkdtempSync(path.join(os.tmpdir(), 'export-celery-'));
const env = { ...process.env, CT_BROKER: URL, CT_BACKEND: URL, CT_BROKER_PREFIX: `${P}b:`, CT_RESULT_PREFIX: `${P}r:`, CT_OUT: out };
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([
  {
    id: 'excel',
    kind: 'celery',
    name: 'Export Celery',
    url: URL,
    resultBackend: URL,
    globalKeyprefix: `${P}b:`,
    resultKeyprefix: `${P}r:`,
    queues: [WORK, HELD],
  },
]);
process.env.POTATOQ_CONSOLE_STATE = path.join(out, 'console-state.sqlite3');
const headers = () => new Headers({ host: 'localhost:3000' });
let py: PySeeder;
let worker: { proc: ChildProcess; log: () => string } | null = null;
const ok: string[] = [];
const failed: string[] = [];
const held: string[] = [];

const exportsAudited = async () =>
  (await (await (await import('@/lib/audit/store')).getAuditStore()).list({ broker: 'excel', action: 'export', limit: 20 })).entries;
const results = async (q: Record<string, string>) =>
  (await (await import('@/lib/actions/export')).exportResults('excel', new URLSearchParams(q), headers())).text();

if (up) {
  beforeAll(async () => {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    py = spawnPySeeder('celery_seeder.py', []);
    process.env = saved;
    for (let i = 0; i < 3; i++) ok.push(await py.call<string>('enqueue', { task: 'ct.record', queue: WORK, args: [i, TEXT] }));
    for (let i = 0; i < 2; i++) failed.push(await py.call<string>('enqueue', { task: 'ct.flaky', queue: WORK, args: [`never-${i}`] }));
    for (let i = 0; i < 2; i++) held.push(await py.call<string>('enqueue', { task: FORMULA, queue: HELD, args: [TEXT, `=1+${i}`] }));
    worker = spawnCeleryWorker(env, [WORK], `export-${P}`);
    const done = async () =>
      (await Promise.all([...ok, ...failed].map((id) => py.call<{ status?: string } | null>('result', { id })))).every((r) => r?.status);
    await until('the worker to store every result', done, 60_000, worker.log);
  }, 90_000);
  afterAll(async () => {
    if (worker) await stopWorker(worker.proc);
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    await py?.close();
    await dropKeysAt(URL, P);
    rmSync(out, { recursive: true, force: true });
  }, 30_000);
}

describe.skipIf(!up)('exports on Celery (Redis), real worker', () => {
  it('exports the results the worker stored, every status, as JSON lines', async () => {
    const rows = jsonLines(await results({ format: 'jsonl' }));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ok) expect(byId.get(id)).toMatchObject({ status: 'SUCCESS', name: 'ct.record' });
    for (const id of failed) expect(byId.get(id)).toMatchObject({ status: 'FAILURE', name: 'ct.flaky' });
    expect((await exportsAudited())[0]).toMatchObject({
      outcome: 'done',
      count: rows.length,
      details: { list: 'results', format: 'jsonl' },
    });
  });

  it('exports only the failures as CSV when filtered, and stops at max saying so', async () => {
    const rows = csvObjects(await results({ status: 'FAILURE' }));
    expect(rows.map((r) => r.id).sort()).toEqual([...failed].sort());
    const capped = csvObjects(await results({ status: 'SUCCESS', max: '2' }));
    expect(capped).toHaveLength(3);
    expect(capped.slice(0, 2).every((r) => ok.includes(r.id!))).toBe(true);
    expect(capped[2]!.id).toMatch(/^# export stopped at 2 rows; more results match/);
    expect((await exportsAudited())[0]).toMatchObject({ count: 2, details: { truncated: true }, filter: { status: 'SUCCESS', max: 2 } });
  });

  it("exports a held queue's ready tasks with their argument text intact and formulas neutralised", async () => {
    const { exportTasks } = await import('@/lib/actions/export');
    const file = async (format: string) =>
      (await exportTasks('excel', new URLSearchParams({ state: 'ready', queue: HELD, format }), headers())).text();
    const rows = csvObjects(await file('csv'));
    const json = new Map(jsonLines(await file('jsonl')).map((o) => [o.id, o]));
    expect(rows.map((r) => r.id).sort()).toEqual([...held].sort());
    for (const r of rows) {
      expect(r.task).toBe(`'${FORMULA}`);
      expect(json.get(r.id)?.task).toBe(FORMULA);
      // The preview's text (commas, quotes) reads back from its CSV cell exactly as JSON lines carry it.
      expect(r.preview).toContain('a, "b"');
      expect(r.preview).toBe(json.get(r.id)?.preview);
    }
    expect((await exportsAudited())[0]).toMatchObject({ count: 2, filter: { list: 'tasks', state: 'ready', queue: HELD } });
  });
});
