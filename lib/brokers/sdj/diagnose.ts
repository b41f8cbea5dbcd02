import 'server-only';
import { STUCK_IDS, type Diagnosis, type StuckFlag } from '@/lib/brokers/diagnosis';
import { formatAge } from '@/lib/text/format';
import { idText, isoOf, type SdjDb } from './db';
import type { SdjQueueRow } from './overview';
import { listStaleLocks } from './stuck';

// Stuck work on SDJ, from the database alone (it keeps no worker registry):
// - worker-lost: running jobs past the stale-lock cutoff, the library's own reaper predicate
//   (stuck.ts); a live worker's reaper re-queues them every 5 minutes, so if they stay, none runs;
// - over-time-limit: running jobs past their own `timeout` (ns; 0 = none);
// - no-consumer: due pending jobs in a queue where none runs, for NO_CLAIM_AFTER_S, or in a queue
//   that never ran a job (nothing running, finished or dead), or a paused queue;
// - overdue: pending jobs given a `run_at` that passed more than the threshold ago.

export const NO_CLAIM_AFTER_S = 60;
const SCAN = 500;
const NEVER_RUNNING = 'The console never changes running jobs: it cannot cancel, requeue or stop a job while a worker holds its lock.';
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const age = (s: number) => formatAge(Math.max(0, s));
const linkFor = (ids: string[], queue: string, state: string): StuckFlag['link'] =>
  ids.length === 1 ? { page: 'task', id: ids[0]! } : { page: 'queue', queue, state };
const can = (revoke: { on: boolean; why?: string }, what: string) =>
  revoke.on ? `${what} The console can cancel or purge what waits meanwhile.` : `${what} Cancel is off here: ${revoke.why ?? 'read-only'}.`;

function byQueue<T extends { queue: string }>(rows: T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) m.set(r.queue, [...(m.get(r.queue) ?? []), r]);
  return m;
}

async function lost(db: SdjDb, minutes: number): Promise<StuckFlag[]> {
  const stale = await listStaleLocks(db, { minutes, limit: SCAN });
  return [...byQueue(stale)].map(([queue, jobs]) => {
    const ids = jobs.map((j) => j.id);
    const oldest = Date.parse(jobs[0]!.lastSignOfLife ?? '');
    return {
      check: 'worker-lost',
      queue,
      ids: ids.slice(0, STUCK_IDS),
      count: jobs.length,
      seconds: Number.isFinite(oldest) ? (Date.now() - oldest) / 1000 : null,
      cause: `${plural(jobs.length, 'running job')} of queue ${queue} showed no sign of life (heartbeat, else claim) for more than ${minutes} minutes: the worker holding ${jobs.length === 1 ? 'it' : 'them'} (${jobs[0]!.lockedBy ?? 'unknown'}) is gone or hung, and no live worker's stale-lock reaper has re-queued ${jobs.length === 1 ? 'it' : 'them'}.`,
      can: `Start a Simple Durable Jobs worker: its reaper puts stale jobs back to pending within 5 minutes, attempt kept. Check the lock holder named on each job.`,
      cannot: NEVER_RUNNING,
      link: linkFor(ids, queue, 'running'),
    };
  });
}

async function overTime(db: SdjDb): Promise<StuckFlag[]> {
  const past =
    db.dialect === 'postgres' ? 'EXTRACT(EPOCH FROM (NOW() - started_at))' : 'TIMESTAMPDIFF(MICROSECOND, started_at, NOW(6)) / 1000000';
  const rows = await db.all(
    `SELECT id, type, queue, timeout, ${past} AS ran FROM jobs WHERE status = 'running' AND timeout > 0 AND started_at IS NOT NULL ORDER BY created_at LIMIT ${SCAN}`,
  );
  return rows.flatMap((r): StuckFlag[] => {
    const limitS = Number(r.timeout) / 1e9;
    const ran = Number(r.ran);
    if (!(ran > limitS + 30)) return [];
    const id = idText(r.id) ?? '';
    return [
      {
        check: 'over-time-limit',
        queue: String(r.queue),
        ids: [id],
        count: 1,
        seconds: ran,
        cause: `${String(r.type)} has been running for ${age(ran)}, past its timeout of ${age(limitS)}: its handler does not stop at the deadline.`,
        can: 'Stop or restart the worker that holds its lock (named on the job); the reaper then re-queues it.',
        cannot: NEVER_RUNNING,
        link: { page: 'task', id },
      },
    ];
  });
}

async function noConsumer(db: SdjDb, qs: SdjQueueRow[], revoke: { on: boolean; why?: string }): Promise<StuckFlag[]> {
  const flags: StuckFlag[] = [];
  const due =
    db.dialect === 'postgres'
      ? 'EXTRACT(EPOCH FROM (NOW() - MIN(COALESCE(run_at, created_at))))'
      : 'TIMESTAMPDIFF(MICROSECOND, MIN(COALESCE(run_at, created_at)), NOW(6)) / 1000000';
  const now = db.dialect === 'postgres' ? 'NOW()' : 'NOW(6)';
  for (const s of qs) {
    const c = s.counts;
    if (!c || c.pending === 0 || c.running > 0) continue;
    // Pending jobs whose time has come: the ones a worker would claim now (bounded by the queue's rows).
    const [row] = await db.all(
      `SELECT COUNT(*) AS n, ${due} AS waited FROM jobs WHERE queue = ? AND status = 'pending' AND COALESCE(run_at, created_at) <= ${now}`,
      [s.queue],
    );
    const n = Number(row?.n ?? 0);
    if (!n) continue;
    const waited = Math.max(0, Number(row?.waited ?? 0));
    const fresh = c.completed + c.cancelled + c.failed + c.waiting === 0 && !s.dead;
    if (!s.paused && !fresh && waited < NO_CLAIM_AFTER_S) continue;
    const why = s.paused
      ? `the queue is paused (queue_states${s.pausedBy ? `, by ${s.pausedBy}` : ''}${s.pausedAt ? ` since ${s.pausedAt}` : ''})`
      : fresh
        ? 'none of its jobs runs and none ever ran, so no worker claims from it'
        : `none of its jobs runs and the oldest due one has waited ${age(waited)}`;
    flags.push({
      check: 'no-consumer',
      queue: s.queue,
      ids: [],
      count: n,
      seconds: waited,
      cause: `${plural(n, 'due job')} ${n === 1 ? 'waits' : 'wait'} in queue ${s.queue} and no worker claims ${n === 1 ? 'it' : 'them'}: ${why}.`,
      can: s.paused
        ? 'Resume the queue on its page; workers claim from it at their next poll.'
        : can(
            revoke,
            `Start a Simple Durable Jobs worker for queue ${s.queue} (SDJ keeps no worker registry: the console sees workers only by the jobs they run).`,
          ),
      cannot: 'The console does not run jobs: only a worker claiming from the queue does.',
      link: { page: 'queue', queue: s.queue, state: 'pending' },
    });
  }
  return flags;
}

async function overdue(db: SdjDb, thr: number, revoke: { on: boolean; why?: string }): Promise<StuckFlag[]> {
  const cutoff = new Date(Date.now() - thr * 1000);
  const rows = await db.all(
    `SELECT id, queue, run_at FROM jobs WHERE status = 'pending' AND run_at IS NOT NULL AND run_at < ? ORDER BY run_at LIMIT ${SCAN}`,
    [cutoff],
  );
  const late = rows.map((r) => ({ id: idText(r.id) ?? '', queue: String(r.queue), at: Date.parse(isoOf(r.run_at) ?? '') }));
  return [...byQueue(late)].map(([queue, jobs]) => {
    const ids = jobs.map((j) => j.id);
    const over = (Date.now() - jobs[0]!.at) / 1000;
    return {
      check: 'overdue',
      queue,
      ids: ids.slice(0, STUCK_IDS),
      count: jobs.length,
      seconds: over,
      cause: `${plural(jobs.length, 'delayed job')} of queue ${queue} (run_at, a delay or a retry's backoff) ${jobs.length === 1 ? 'was' : 'were'} due more than ${age(thr)} ago (the oldest ${age(over)} ago) and still ${jobs.length === 1 ? 'waits' : 'wait'}.`,
      can: can(revoke, `Check that a worker claims from ${queue} and that the queue is not paused.`),
      cannot: 'The console does not run delayed jobs: workers claim them once due.',
      link: linkFor(ids, queue, 'pending'),
    };
  });
}

export async function diagnoseSdj(
  db: SdjDb,
  brokerId: string,
  queues: SdjQueueRow[],
  q: { overdueSeconds: number; revoke: { on: boolean; why?: string } },
  staleLockMinutes: number,
): Promise<Diagnosis> {
  const flags = [
    ...(await lost(db, staleLockMinutes)),
    ...(await overTime(db)),
    ...(await noConsumer(db, queues, q.revoke)),
    ...(await overdue(db, q.overdueSeconds, q.revoke)),
  ];
  return {
    brokerId,
    flags,
    unknown: [{ check: 'poison', why: POISON_WHY }],
    notes: [
      {
        check: 'worker-lost',
        text: `A running job counts as lost once it showed no sign of life for ${staleLockMinutes} minutes (the library's stale-lock age; a worker's own WithStaleLockAge is not stored in the database: set staleLockMinutes to match it). At most ${SCAN} are read.`,
      },
      {
        check: 'no-consumer',
        text: `Simple Durable Jobs has no worker registry: a queue counts as not consumed when its due jobs wait with none of it running, for ${NO_CLAIM_AFTER_S} s or when it never ran a job.`,
      },
    ],
    overdueSeconds: q.overdueSeconds,
    readAt: new Date().toISOString(),
  };
}

const POISON_WHY =
  'A job a Simple Durable Jobs worker cannot decode or run fails like any other (it retries, then is dead-lettered), so no job blocks a queue: nothing to check';
