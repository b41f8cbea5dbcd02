import 'server-only';
import { STUCK_IDS, type Diagnosis, type QueueStats, type StuckFlag } from '@/lib/brokers/dto';
import type { QfQueueStats } from './overview';
import { formatAge } from '@/lib/text/format';
import type { QfClient } from './client';
import { afterJob, jobPager } from './jobs';
import { collectRows, mapLimit } from './pages';
import type { QfJob } from './wire';

// Stuck work on QueueFlow, through its API only: the queue counts (`/api/v1/queues`) and
// bounded job lists. QueueFlow keeps no worker registry and shows no lease, so a lost worker is
// seen once its janitor reclaimed the expired lease (the job retries with QueueFlow's message),
// and "no consumer" is inferred from jobs that wait while none of the queue runs.

/** Jobs read per queue and status at most (oldest first). */
export const QF_STUCK_SCAN = 500;
/** A claimable job waiting this long with nothing of its queue running: no worker takes it. */
export const NO_CLAIM_AFTER_S = 10;
/** Past its timeout by this much, a running job's worker is not stopping it. */
const TIMEOUT_GRACE_S = 30;
/** QueueFlow's janitor writes this when it reclaims an expired lease. */
export const LEASE_EXPIRED = 'lease expired';

const NEVER_RUNNING = 'The console never changes running jobs: it cannot cancel, requeue or stop a job while a worker holds its lease.';
const age = (s: number) => formatAge(Math.max(0, s));
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const ms = (iso: string | undefined) => (iso ? Date.parse(iso) : NaN);
const linkFor = (ids: string[], queue: string, state: string): StuckFlag['link'] =>
  ids.length === 1 ? { page: 'task', id: ids[0]! } : { page: 'queue', queue, state };

const oldest = (client: QfClient, status: string, queue: string) =>
  collectRows(jobPager(client, { status, queue, ascending: true }), afterJob, QF_STUCK_SCAN, undefined);

function lost(q: QueueStats, jobs: QfJob[], revoke: { on: boolean; why?: string }): StuckFlag[] {
  const hit = jobs.filter((j) => (j.error_message ?? '').startsWith(LEASE_EXPIRED));
  if (!hit.length) return [];
  const ids = hit.map((j) => j.id);
  return [
    {
      check: 'worker-lost',
      queue: q.name,
      ids: ids.slice(0, STUCK_IDS),
      count: hit.length,
      seconds: null,
      cause: `${plural(hit.length, 'job')} of queue ${q.name} lost ${hit.length === 1 ? 'its' : 'their'} worker: the lease expired without a heartbeat, and QueueFlow's janitor reclaimed ${hit.length === 1 ? 'it' : 'them'} ("${hit[0]!.error_message}").`,
      can: `QueueFlow retries ${hit.length === 1 ? 'it' : 'them'} at the retry time (on any worker of ${q.name}) and dead-letters after max_retries. ${
        revoke.on ? 'The console can cancel them while they wait.' : `Cancel is off here: ${revoke.why ?? 'read-only'}.`
      }`,
      cannot: NEVER_RUNNING,
      link: linkFor(ids, q.name, 'retrying'),
    },
  ];
}

function overTime(q: QueueStats, running: QfJob[], now: number): StuckFlag[] {
  return running.flatMap((j): StuckFlag[] => {
    const limit = Number(j.config?.timeout_secs);
    const started = ms(j.started_at);
    // started_at is the first delivery's: a redelivered job's run time is not known.
    if (!Number.isFinite(limit) || limit <= 0 || Number.isNaN(started) || j.delivery_count > 1) return [];
    const runningFor = (now - started) / 1000;
    if (runningFor <= limit + TIMEOUT_GRACE_S) return [];
    return [
      {
        check: 'over-time-limit',
        queue: q.name,
        ids: [j.id],
        count: 1,
        seconds: runningFor,
        cause: `${j.task_name} has been running for ${age(runningFor)}, past its timeout of ${limit} s: its worker keeps renewing the lease instead of stopping it.`,
        can: 'Stop or restart the worker that runs it (QueueFlow does not say which one: its workers are anonymous); once its lease expires QueueFlow retries or dead-letters it.',
        cannot: NEVER_RUNNING,
        link: { page: 'task', id: j.id },
      },
    ];
  });
}

async function neverRan(client: QfClient, queue: string): Promise<boolean> {
  for (const status of ['completed', 'failed'])
    if ((await collectRows(jobPager(client, { status, queue }), afterJob, 1, undefined)).rows.length) return false;
  return true;
}

function noConsumer(
  q: QfQueueStats,
  waitedS: number | null,
  fresh: boolean,
  revoke: { on: boolean; why?: string },
  held: string | undefined,
): StuckFlag | null {
  const n = q.claimable;
  if (!n || (q.counts.running ?? 0) > 0) return null;
  if (!q.paused && !fresh && (waitedS === null || waitedS < NO_CLAIM_AFTER_S)) return null;
  const why = q.paused
    ? held
      ? `the queue is ${held}`
      : 'the queue is paused: its jobs wait until it is resumed'
    : fresh
      ? 'no job of it runs and none has ever finished, so no worker has taken from it'
      : `no job of it runs and the oldest has waited ${age(waitedS ?? 0)}`;
  return {
    check: 'no-consumer',
    queue: q.name,
    ids: [],
    count: n,
    seconds: waitedS,
    cause: `${plural(n, 'job')} ${n === 1 ? 'waits' : 'wait'} in queue ${q.name} and no worker takes ${n === 1 ? 'it' : 'them'}: ${why}.`,
    can: q.paused
      ? held
        ? 'Nothing to do: the console resumes it itself (Resume is refused while its edit-replay holds the queue).'
        : 'Resume the queue on its page (Resume); its jobs then run at once.'
      : `Start a worker leasing from ${q.name} (QueueFlow's workers are anonymous: the console cannot list them). ${revoke.on ? 'Meanwhile the console can cancel or purge what waits.' : ''}`.trim(),
    cannot: 'The console does not run jobs: only a worker leasing from the queue does.',
    link: { page: 'queue', queue: q.name, state: 'pending' },
  };
}

function overdue(q: QueueStats, jobs: QfJob[], thr: number, now: number): StuckFlag[] {
  // Due more than the threshold ago and still waiting: a retry, or a job given a run_at (its
  // scheduled_at is then after its created_at). A job without one (scheduled_at = created_at)
  // is waiting work, the no-consumer case, not scheduled work.
  const late = jobs.filter((j) => {
    const at = ms(j.scheduled_at);
    return at < now - thr * 1000 && (j.status === 'retrying' || at > ms(j.created_at));
  });
  if (!late.length) return [];
  const first = Math.min(...late.map((j) => ms(j.scheduled_at)));
  const ids = late.map((j) => j.id);
  const state = late.every((j) => j.status === 'retrying') ? 'retrying' : 'pending';
  return [
    {
      check: 'overdue',
      queue: q.name,
      ids: ids.slice(0, STUCK_IDS),
      count: late.length,
      seconds: (now - first) / 1000,
      cause: `${plural(late.length, 'scheduled job')} of queue ${q.name} (run_at or retry time) ${late.length === 1 ? 'was' : 'were'} due more than ${age(thr)} ago (the oldest ${age((now - first) / 1000)} ago) and still ${late.length === 1 ? 'waits' : 'wait'}: ${q.paused ? 'the queue is paused' : 'no worker is leasing from the queue'}.`,
      can: q.paused
        ? 'Resume the queue on its page.'
        : `Start or check the workers leasing from ${q.name}. The console can cancel them meanwhile.`,
      cannot: 'The console does not run scheduled jobs: workers lease them once they are due.',
      link: linkFor(ids, q.name, state),
    },
  ];
}

/** The grain of `/queues`' `oldest_pending_age_secs` (an integer, rounded down). */
const AGE_GRAIN_S = 1;

/** Every check QueueFlow's API allows, per queue, from bounded reads. */
export async function diagnoseQueueflow(
  client: QfClient,
  brokerId: string,
  queues: QfQueueStats[],
  q: { overdueSeconds: number; revoke: { on: boolean; why?: string } },
  /** Queues the console's own edit-replay holds paused: "paused by the console's edit-replay since …". */
  held: ReadonlyMap<string, string> = new Map(),
): Promise<Diagnosis> {
  const now = Date.now();
  const thr = q.overdueSeconds;
  const flags: StuckFlag[] = [];
  let capped = false;
  const per = await mapLimit(queues, 4, async (s) => {
    const out: StuckFlag[] = [];
    const waitedS = s.oldestWaitingAt ? (now - Date.parse(s.oldestWaitingAt)) / 1000 : null;
    const retrying = s.counts.retrying ? await oldest(client, 'retrying', s.name) : { rows: [], next: null };
    const running = s.counts.running ? await oldest(client, 'running', s.name) : { rows: [], next: null };
    // QueueFlow gives the oldest claimable job's age in whole seconds, cut down: the job may be
    // up to a second older, so its pending jobs are read once that second could cross the
    // threshold (overdue() then judges each by its own scheduled_at).
    const pending = waitedS !== null && waitedS + AGE_GRAIN_S > thr ? await oldest(client, 'pending', s.name) : { rows: [], next: null };
    if (retrying.next || running.next || pending.next) capped = true;
    out.push(...lost(s, retrying.rows, q.revoke), ...overTime(s, running.rows, now));
    const fresh = !!s.claimable && !s.counts.running && (waitedS ?? 0) < NO_CLAIM_AFTER_S && (await neverRan(client, s.name));
    const nc = noConsumer(s, waitedS, fresh, q.revoke, s.paused ? held.get(s.name) : undefined);
    if (nc) out.push(nc);
    out.push(...overdue(s, [...pending.rows, ...retrying.rows], thr, now));
    return out;
  });
  for (const f of per) flags.push(...f);
  const notes: Diagnosis['notes'] = [
    {
      check: 'worker-lost',
      text: "QueueFlow's API shows no lease: a job whose worker stopped heartbeating is seen once QueueFlow's janitor has reclaimed its expired lease (every --janitor-interval-secs), not while it still reads as running",
    },
    {
      check: 'over-time-limit',
      text: "Checked against each running job's timeout_secs; a job delivered more than once is not checked (QueueFlow keeps the first start only)",
    },
    {
      check: 'no-consumer',
      text: `QueueFlow has no worker registry: a queue counts as not consumed when claimable jobs wait with none of it running, for ${NO_CLAIM_AFTER_S} s or when none of it ever finished (a job enqueued a moment ago on a new queue may be flagged until its worker polls)`,
    },
  ];
  for (const [queue, text] of held) notes.push({ check: 'no-consumer', text: `Queue ${queue} is ${text}` });
  if (capped) notes.push({ check: 'overdue', text: `Only the ${QF_STUCK_SCAN} oldest jobs per queue and status were checked` });
  return {
    brokerId,
    flags,
    unknown: [{ check: 'poison', why: POISON_WHY }],
    notes,
    overdueSeconds: thr,
    readAt: new Date(now).toISOString(),
  };
}

const POISON_WHY =
  'QueueFlow payloads are JSON objects the server has already parsed, and a failing handler retries or dead-letters its job, so no job blocks a queue; nothing to check';
