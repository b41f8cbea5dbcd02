import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { POTATOQ_SQLITE_SCHEMA } from './schema';
import { celeryJob, DEMO_WORKER_ALIVE, demoJobs } from './fixtures-jobs';
import { demoDead, demoWorkers } from './fixtures-dead';

/**
 * Creates the embedded demo broker at `file` when it does not exist: potatoq's own SQLite
 * schema, seeded with queues, ready/scheduled/running work, dead letters of every reason kind,
 * results and heartbeats, all relative to now. An existing file is left exactly as it is
 * (the demo is the operator's to change), so this is safe to call on every boot.
 *
 * The file is built under a temporary name and linked into place, so a crash mid-seed never
 * leaves a half-seeded demo, and two processes racing here end with one complete file.
 */
export function ensureDemoDatabase(file: string, now = Date.now() / 1000): { created: boolean } {
  if (fs.existsSync(file)) return { created: false };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.seeding-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    const db = new Database(tmp);
    try {
      seedDemoDatabase(db, now);
    } finally {
      db.close();
    }
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { created: false };
      throw e;
    }
    return { created: true };
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Applies potatoq's schema and the demo rows to an open, empty database. */
export function seedDemoDatabase(db: Database.Database, now = Date.now() / 1000): void {
  // Like potatoq's setup(): WAL, then the schema. WAL is stored in the file header.
  db.pragma('journal_mode = WAL');
  db.exec(POTATOQ_SQLITE_SCHEMA);
  const jobs = [celeryJob(now), ...demoJobs(now)].sort((a, b) => a.createdAt - b.createdAt);
  const { dead, results } = demoDead(now);
  const running = jobs.filter((j) => j.state === 2 && j.worker === DEMO_WORKER_ALIVE).map((j) => j.id);
  const insertJob = db.prepare(
    `INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, deliveries, token, worker, pid, claimed_at, created_at, payload)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertDead = db.prepare('INSERT INTO potatoq_dead (id, queue, task, reason, died_at, payload) VALUES (?, ?, ?, ?, ?, ?)');
  const insertResult = db.prepare('INSERT INTO potatoq_results (id, state, payload, expires_at) VALUES (?, ?, ?, ?)');
  const insertWorker = db.prepare('INSERT INTO potatoq_workers (id, heartbeat, info) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const j of jobs) {
      insertJob.run(
        j.id,
        j.queue,
        j.task,
        j.state,
        j.priority,
        j.runAt,
        j.deliveries,
        j.token,
        j.worker,
        j.pid,
        j.claimedAt,
        j.createdAt,
        j.payload,
      );
    }
    for (const d of dead) insertDead.run(d.id, d.queue, d.task, d.reason, d.diedAt, d.payload);
    for (const r of results) insertResult.run(r.id, r.state, r.payload, r.expiresAt);
    for (const w of demoWorkers(now, running)) insertWorker.run(w.id, w.heartbeat, w.info);
  }).immediate();
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/**
 * Keeps the demo's "alive" worker alive: without a fresh heartbeat, a real potatoq worker
 * pointed at the demo file would recover its running rows after 60 s. Touches only that
 * worker's heartbeat row; a no-op when the row was removed.
 */
export function refreshDemoHeartbeat(file: string, now = Date.now() / 1000): void {
  const db = new Database(file, { fileMustExist: true, timeout: 5000 });
  try {
    db.prepare('UPDATE potatoq_workers SET heartbeat = ? WHERE id = ?').run(now, DEMO_WORKER_ALIVE);
  } finally {
    db.close();
  }
}
