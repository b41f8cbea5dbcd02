import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Py } from '../lib/demo/py-json';
import { buildDemoMessage, buildResultPayload } from '../lib/demo/wire';

// Native seeding and assertions for specs: rows written in potatoq's SQLite layout, the way
// potatoq's producer and worker write them (BEGIN IMMEDIATE, REAL epoch seconds, compact
// payloads). Each spec makes its own queue names so specs never see each other's rows.

export const uniqueQueue = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

function write<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file, { timeout: 10_000 });
  try {
    return db.transaction(() => fn(db)).immediate();
  } finally {
    db.close();
  }
}

/** What a worker does when it claims a task (potatoq's SQLite claim), for racing the console. */
export function claim(file: string, id: string, worker = 'e2e-worker@host'): void {
  write(file, (db) => {
    db.prepare('UPDATE potatoq_jobs SET state = 2, worker = ?, claimed_at = ?, deliveries = deliveries + 1 WHERE id = ? AND state = 1').run(
      worker,
      Date.now() / 1000,
      id,
    );
  });
}

export function rows<T = Record<string, unknown>>(file: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(file, { readonly: true, timeout: 10_000 });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

interface TaskSpec {
  queue: string;
  task?: string;
  args?: Py[];
  kwargs?: Record<string, Py>;
  eta?: number;
  /** A fixed id instead of a fresh UUID (ids are free text in potatoq). */
  id?: string;
}

/** A waiting task, as `task.delay()` writes it: ready, or scheduled when `eta` is ahead. */
export function addTask(file: string, spec: TaskSpec): string {
  const now = Date.now() / 1000;
  const m = buildDemoMessage({
    id: spec.id,
    task: spec.task ?? 'demo.echo',
    queue: spec.queue,
    args: spec.args,
    kwargs: spec.kwargs,
    eta: spec.eta,
    enqueuedAt: now,
  });
  const state = spec.eta && spec.eta > now ? 0 : 1;
  write(file, (db) =>
    db
      .prepare('INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, created_at, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(m.id, m.queue, m.task, state, m.priority, spec.eta ?? now, now, m.payload),
  );
  return m.id;
}

/** A ready row whose payload is stored byte for byte as given (bad JSON, huge, foreign). */
export function addRawTask(file: string, spec: { queue: string; task: string; payload: string | Buffer }): string {
  const id = `raw-${randomBytes(6).toString('hex')}`;
  const now = Date.now() / 1000;
  write(file, (db) =>
    db
      .prepare('INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, created_at, payload) VALUES (?, ?, ?, 1, 0, ?, ?, ?)')
      .run(id, spec.queue, spec.task, now, now, spec.payload),
  );
  return id;
}

/** A dead letter with its FAILURE result, as a worker leaves a task that raised. */
export function addDead(file: string, spec: TaskSpec & { reason: string }): string {
  const now = Date.now() / 1000;
  const task = spec.task ?? 'demo.charge_card';
  const m = buildDemoMessage({
    id: spec.id,
    task,
    queue: spec.queue,
    args: spec.args,
    kwargs: spec.kwargs,
    eta: spec.eta,
    retries: spec.eta ? 1 : 0,
    enqueuedAt: now - 60,
  });
  const result = buildResultPayload({
    id: m.id,
    status: 'FAILURE',
    traceback: spec.reason,
    dateDone: now,
    name: task,
    args: spec.args ?? [],
    kwargs: spec.kwargs ?? {},
  });
  write(file, (db) => {
    db.prepare('INSERT INTO potatoq_dead (id, queue, task, reason, died_at, payload) VALUES (?, ?, ?, ?, ?, ?)').run(
      m.id,
      m.queue,
      task,
      spec.reason,
      now,
      m.payload,
    );
    db.prepare('INSERT INTO potatoq_results (id, state, payload, expires_at) VALUES (?, ?, ?, ?)').run(
      m.id,
      'FAILURE',
      result,
      now + 86400,
    );
  });
  return m.id;
}

export interface JobRow {
  id: string;
  queue: string;
  task: string;
  state: number;
  payload: string;
}

export const job = (file: string, id: string) =>
  rows<JobRow>(file, 'SELECT id, queue, task, state, payload FROM potatoq_jobs WHERE id = ?', id)[0];
export const deadRow = (file: string, id: string) => rows(file, 'SELECT id FROM potatoq_dead WHERE id = ?', id)[0];
export const result = (file: string, id: string) =>
  rows<{ state: string; payload: string }>(file, 'SELECT state, payload FROM potatoq_results WHERE id = ?', id)[0];
export const queueJobs = (file: string, queue: string) =>
  rows<JobRow>(file, 'SELECT id, queue, task, state, payload FROM potatoq_jobs WHERE queue = ? ORDER BY seq', queue);
