// int-lane: isolated (names Celery only as a message format)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoDatabase } from '@/lib/demo/seed';
import { DEMO_TASK_NAMES, registeredDigest } from '@/lib/demo/fixtures-dead';

// The embedded demo broker against the real potatoq 26.1a8 in .venv: same schema as
// `potatoq migrate`, payloads byte-identical to potatoq's own encoding, and a real worker
// runs the demo's ready tasks from demo/tasks.py.

const ROOT = path.resolve(__dirname, '../..');
const POTATOQ = path.join(ROOT, '.venv/bin/potatoq');
const PYTHON = path.join(ROOT, '.venv/bin/python');
const hasVenv = fs.existsSync(POTATOQ);
if (!hasVenv) {
  const line = `SKIPPED demo-worker round trips: ${POTATOQ} is missing (run scripts/ensure-venv.sh)`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(`\n*** ${line} ***\n`);
}
const WORKER_QUEUES = ['default', 'emails', 'reports', 'billing'];

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-worker-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function freshDemo(name: string): string {
  const file = path.join(dir, `${name}.sqlite3`);
  expect(ensureDemoDatabase(file)).toEqual({ created: true });
  return file;
}

function query<T>(file: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs a solo worker until `done()` holds (then SIGTERM) or it exits by itself. */
function runWorker(file: string, queues: string[], calls: string, done: () => boolean, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(POTATOQ, ['-A', 'demo.tasks', '--no-color', 'worker', '-P', 'solo', '--no-scheduler', '-Q', queues.join(',')], {
      cwd: ROOT,
      env: { ...process.env, POTATOQ_BROKER_URL: `sqlite:///${file}`, POTATOQ_DEMO_CALLS: calls, POTATOQ_NO_EMOJI: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const started = Date.now();
    const poll = setInterval(() => {
      if (done() || Date.now() - started > timeoutMs) child.kill('SIGTERM');
    }, 250);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      resolve({ code, signal, stderr });
    });
  });
}

function readCalls(file: string): Array<{ task: string; id: string; queue: string; args: unknown; kwargs: unknown }> {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe.skipIf(!hasVenv)('the embedded demo broker with potatoq 26.1a8', () => {
  it('has exactly the tables and indexes `potatoq migrate` creates', () => {
    const demo = freshDemo('schema');
    const migrated = path.join(dir, 'migrated.sqlite3');
    execFileSync(POTATOQ, ['-b', `sqlite:///${migrated}`, 'migrate'], { cwd: dir, env: { ...process.env, POTATOQ_NO_EMOJI: '1' } });
    const master = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name";
    expect(query(demo, master)).toEqual(query(migrated, master));
    expect(query(demo, 'PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
  });

  it('writes every payload, result and heartbeat byte for byte as potatoq encodes it', () => {
    const demo = freshDemo('bytes');
    const out = execFileSync(PYTHON, [path.join(__dirname, 'demo-check.py'), demo], { encoding: 'utf8' });
    const report = JSON.parse(out) as { checked: number; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.checked).toBeGreaterThan(25);
  });

  it('leaves an existing demo file untouched', () => {
    const demo = freshDemo('idempotent');
    const before = fs.readFileSync(demo);
    expect(ensureDemoDatabase(demo)).toEqual({ created: false });
    expect(fs.readFileSync(demo).equals(before)).toBe(true);
  });

  it('runs every ready task of the worker queues, decoding tagged values, and leaves scheduled, running and dead rows alone', async () => {
    const demo = freshDemo('run');
    const calls = path.join(dir, 'run-calls.jsonl');
    const marks = WORKER_QUEUES.map(() => '?').join(', ');
    const ready = query<{ id: string; task: string }>(
      demo,
      `SELECT id, task FROM potatoq_jobs WHERE state = 1 AND queue IN (${marks})`,
      ...WORKER_QUEUES,
    );
    const untouched = `SELECT id, state, token, worker, run_at, payload FROM potatoq_jobs WHERE state IN (0, 2) ORDER BY id`;
    const waitingBefore = query(demo, untouched);
    const deadBefore = query(demo, 'SELECT * FROM potatoq_dead ORDER BY id');
    expect(ready.length).toBeGreaterThanOrEqual(10);

    const run = await runWorker(demo, WORKER_QUEUES, calls, () => readCalls(calls).length >= ready.length);

    expect(run.signal ?? run.code, run.stderr).not.toBeNull();
    const ran = readCalls(calls);
    expect(ran.map((c) => c.id).sort()).toEqual(ready.map((r) => r.id).sort());
    const typed = ran.find((c) => c.task === 'demo.echo' && 'when' in (c.kwargs as object));
    expect(typed?.args).toEqual([
      'datetime',
      'datetime',
      'date',
      'time',
      'timedelta',
      'UUID',
      'Decimal',
      'bytes',
      'set',
      { customer: { tags: ['str', 'str'], limits: { daily: 'Decimal' } } },
      'int',
      'int',
      'float',
      'float',
      'float',
    ]);
    expect(typed?.kwargs).toEqual({ note: 'str', when: 'datetime' });
    expect(query(demo, `SELECT count(*) AS n FROM potatoq_jobs WHERE state = 1 AND queue IN (${marks})`, ...WORKER_QUEUES)).toEqual([
      { n: 0 },
    ]);
    expect(query(demo, untouched)).toEqual(waitingBefore);
    expect(query(demo, 'SELECT * FROM potatoq_dead ORDER BY id')).toEqual(deadBefore);
    const success = query<{ id: string }>(demo, "SELECT id FROM potatoq_results WHERE state = 'SUCCESS'").map((r) => r.id);
    for (const r of ready) expect(success).toContain(r.id);
    // The worker published its registered names under the digest the demo seeded.
    const registered = query<{ id: string }>(demo, "SELECT id FROM potatoq_results WHERE id LIKE 'potatoq-registered-%'");
    expect(registered).toEqual([{ id: `potatoq-registered-${registeredDigest(DEMO_TASK_NAMES)}` }]);
  });

  it('kills a worker on the poison queue without claiming anything: the 1,000-deep list first, then the Celery body', async () => {
    const demo = freshDemo('poison');
    const calls = path.join(dir, 'poison-calls.jsonl');
    const poison = "SELECT id, task, state, deliveries, worker FROM potatoq_jobs WHERE queue = 'poison' ORDER BY seq";
    const before = query<{ id: string; task: string }>(demo, poison);
    expect(before.map((r) => r.task)).toEqual(['demo.echo', 'proj.tasks.add']);

    const first = await runWorker(demo, ['poison'], calls, () => false, 30_000);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('RecursionError: maximum recursion depth exceeded while decoding a JSON array');
    // 26.1a8 decodes inside the claim transaction, so the failed claim rolls back.
    expect(query(demo, poison)).toEqual(before);

    const db = new Database(demo);
    db.prepare('DELETE FROM potatoq_jobs WHERE id = ?').run(before[0]!.id);
    db.close();
    const second = await runWorker(demo, ['poison'], calls, () => false, 30_000);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('ValueError: This is a Celery (protocol 2) message, not a potatoq one.');
    expect(query(demo, poison)).toEqual(before.slice(1));
    expect(readCalls(calls)).toEqual([]);
    expect(query(demo, "SELECT count(*) AS n FROM potatoq_dead WHERE queue = 'poison'")).toEqual([{ n: 0 }]);
  });
});
