import 'server-only';
import { parseJson, type JsonNode } from '@/lib/pyvalues';
import { STUCK_IDS, type Diagnosis, type QueueStats, type StuckFlag, type WorkerInfo } from '@/lib/brokers/dto';
import { formatAge } from '@/lib/text/format';
import { shellQuote } from '@/lib/text/shell';

// Stuck work on potatoq's brokers, from facts each store reads with bounded queries: running
// rows and their workers' heartbeats, scheduled rows past due, queues and their consumers. The
// words are potatoq's (its recovery, its supervisor); the console never changes running rows.

/** A running task as its store records it. `payload` null when it was too big to read here. */
export interface RunningFact {
  id: string;
  queue: string;
  task: string;
  worker: string | null;
  /** Seconds since it was claimed (on the store's clock), null when unknown. */
  runningFor: number | null;
  payload: string | null;
}

/** Scheduled tasks of one queue that are past due by more than the threshold. */
export interface OverdueFact {
  queue: string;
  count: number;
  /** More than `count` are overdue: the query stopped there. */
  capped: boolean;
  /** Seconds the oldest one is past due. */
  oldestSeconds: number;
  ids: string[];
}

type Known<T> = { value: T } | { why: string };

export interface PotatoqFacts {
  brokerId: string;
  queues: QueueStats[];
  /** Heartbeats; `why` where the store keeps none (RabbitMQ without a result backend). */
  workers: Known<WorkerInfo[]>;
  running: Known<{ rows: RunningFact[]; capped: boolean }>;
  overdue: Known<OverdueFact[]>;
  overdueSeconds: number;
  /** `worker_dead_after`: potatoq's recovery treats a silent node as dead after this. */
  deadAfter: number;
  revoke: { on: boolean; why?: string };
}

/** A task whose time limit passed this long ago should have been killed by its supervisor. */
const TIME_LIMIT_GRACE_S = 30;
const NEVER_RUNNING = 'The console never changes running tasks: it cannot requeue, revoke or stop them while a worker holds them.';

const age = (s: number) => formatAge(s);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The per-call `options.time_limit` of a message, when it has one (seconds). */
export function timeLimitOf(payload: string | null): number | null {
  if (!payload) return null;
  let root: JsonNode;
  try {
    root = parseJson(payload);
  } catch {
    return null;
  }
  const get = (n: JsonNode | undefined, key: string) => (n?.k === 'obj' ? n.entries.find(([k]) => k === key)?.[1] : undefined);
  const v = get(get(root, 'options'), 'time_limit');
  const n = v?.k === 'int' ? Number(v.text) : v?.k === 'float' ? v.v : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

function lostFlags(f: PotatoqFacts, rows: RunningFact[], workers: WorkerInfo[]): StuckFlag[] {
  const byId = new Map(workers.map((w) => [w.id, w]));
  const groups = new Map<string, { queue: string; worker: string | null; ids: string[]; seconds: number | null; why: string }>();
  for (const r of rows) {
    const w = r.worker === null ? undefined : byId.get(r.worker);
    if (w && w.status !== 'dead') continue;
    const why =
      r.worker === null
        ? 'no worker is recorded for it'
        : !w
          ? `its worker ${r.worker} has no heartbeat any more (the node stopped or was removed)`
          : `its worker ${r.worker} last sent a heartbeat ${age(w.ageSeconds)} ago (potatoq counts a node as dead after ${f.deadAfter} s)`;
    const key = `${r.queue}\u0000${r.worker ?? ''}`;
    const g = groups.get(key) ?? { queue: r.queue, worker: r.worker, ids: [], seconds: w ? w.ageSeconds : null, why };
    g.ids.push(r.id);
    groups.set(key, g);
  }
  const liveSomewhere = workers.some((w) => w.status === 'alive');
  return [...groups.values()].map((g) => ({
    check: 'worker-lost',
    queue: g.queue,
    ids: g.ids.slice(0, STUCK_IDS),
    count: g.ids.length,
    seconds: g.seconds,
    cause: `${plural(g.ids.length, 'task')} of queue ${g.queue} ${g.ids.length === 1 ? 'is' : 'are'} marked running, but ${g.why}.`,
    can: liveSomewhere
      ? "A live worker's recovery pass puts such tasks back in the queue (or dead-letters them after their last delivery) within seconds; once they are ready again the console can revoke them. If they stay, check the workers."
      : 'No live worker is running recovery, so they stay until a worker starts: start one (any queue), and its recovery puts them back in the queue or dead-letters them after their last delivery.',
    cannot: NEVER_RUNNING,
    link: g.ids.length === 1 ? { page: 'task', id: g.ids[0]! } : { page: 'queue', queue: g.queue, state: 'running' },
  }));
}

function overTimeFlags(rows: RunningFact[]): StuckFlag[] {
  const out: StuckFlag[] = [];
  for (const r of rows) {
    const limit = timeLimitOf(r.payload);
    if (limit === null || r.runningFor === null || r.runningFor <= limit + TIME_LIMIT_GRACE_S) continue;
    out.push({
      check: 'over-time-limit',
      queue: r.queue,
      ids: [r.id],
      count: 1,
      seconds: r.runningFor,
      cause: `${r.task} has been running for ${age(r.runningFor)}, past its time limit of ${limit} s: its worker's supervisor should have killed it${r.worker ? ` (worker ${r.worker})` : ''}.`,
      can: "Look at its worker on the Workers page: restarting that worker ends the task, and potatoq's recovery then requeues or dead-letters it.",
      cannot: NEVER_RUNNING,
      link: { page: 'task', id: r.id },
    });
  }
  return out;
}

function noConsumerFlags(f: PotatoqFacts): { flags: StuckFlag[]; why: string | null } {
  const flags: StuckFlag[] = [];
  const workers = 'value' in f.workers ? f.workers.value : null;
  let unknownWhy: string | null = null;
  for (const q of f.queues) {
    const ready = q.counts.ready;
    if (!ready) continue;
    // The broker's own consumer count (RabbitMQ) where it has one, else potatoq's heartbeats.
    let none: boolean | null;
    if (q.consumers !== undefined && q.consumers !== null) none = q.consumers === 0;
    else if (workers) none = !workers.some((w) => w.status !== 'dead' && w.queues.includes(q.name));
    else none = null;
    if (none === null) {
      unknownWhy = 'why' in f.workers ? f.workers.why : 'the broker reports no consumers for these queues';
      continue;
    }
    if (!none) continue;
    flags.push({
      check: 'no-consumer',
      queue: q.name,
      ids: [],
      count: ready,
      seconds: q.oldestWaitingAt ? Math.max(0, (Date.now() - Date.parse(q.oldestWaitingAt)) / 1000) : null,
      cause: `${plural(ready, 'task')} ${ready === 1 ? 'waits' : 'wait'} in queue ${q.name} and no live worker consumes it.`,
      can: `Start a worker for it (potatoq worker -Q ${shellQuote(q.name)}). Meanwhile the console can revoke or purge what waits.`,
      cannot: 'The console does not run tasks: only a worker consuming the queue does.',
      link: { page: 'queue', queue: q.name, state: 'ready' },
    });
  }
  return { flags, why: unknownWhy };
}

function overdueFlags(f: PotatoqFacts, rows: OverdueFact[]): StuckFlag[] {
  const workers = 'value' in f.workers ? f.workers.value : [];
  return rows.map((o) => {
    const n = `${o.capped ? 'more than ' : ''}${plural(o.count, 'scheduled task')}`;
    const live = workers.some((w) => w.status === 'alive');
    return {
      check: 'overdue',
      queue: o.queue,
      ids: o.ids.slice(0, STUCK_IDS),
      count: o.count,
      seconds: o.oldestSeconds,
      cause: `${n} of queue ${o.queue} ${o.count === 1 && !o.capped ? 'was' : 'were'} due more than ${age(f.overdueSeconds)} ago (the oldest ${age(o.oldestSeconds)} ago): ${live ? 'the live workers are not promoting them' : 'no live worker is promoting them to ready'}.`,
      can: 'Workers promote due tasks every second: start or check the workers. The console can revoke them meanwhile.',
      cannot: 'The console does not promote or run scheduled tasks: workers do.',
      link: o.ids.length === 1 && o.count === 1 ? { page: 'task', id: o.ids[0]! } : { page: 'queue', queue: o.queue, state: 'scheduled' },
    };
  });
}

function poisonFlags(f: PotatoqFacts): StuckFlag[] {
  return f.queues.flatMap((q) => {
    const b = q.blockedBy;
    if (!b) return [];
    return [
      {
        check: 'poison' as const,
        queue: q.name,
        ids: [b.id],
        count: 1,
        seconds: null,
        cause: `The next task of queue ${q.name} (${b.task ?? 'task name unknown'}) cannot be decoded by ${b.system}: every worker that claims it crashes (${b.reason}).`,
        can: f.revoke.on
          ? 'Revoke it to unblock the queue (its page has the button).'
          : `Revoking it would unblock the queue, but not here: ${f.revoke.why ?? 'revoke is off'}.`,
        cannot: 'The console cannot make the workers decode it.',
        link: { page: 'task' as const, id: b.id },
      },
    ];
  });
}

/** Every check over the facts; a fact the store could not read makes its checks unknown. */
export function diagnosePotatoq(f: PotatoqFacts): Diagnosis {
  const flags: StuckFlag[] = [];
  const unknown: Diagnosis['unknown'] = [];
  const notes: Diagnosis['notes'] = [];
  if ('value' in f.running && 'value' in f.workers) {
    flags.push(...lostFlags(f, f.running.value.rows, f.workers.value));
  } else {
    unknown.push({ check: 'worker-lost', why: 'why' in f.running ? f.running.why : (f.workers as { why: string }).why });
  }
  if ('value' in f.running) {
    flags.push(...overTimeFlags(f.running.value.rows));
    notes.push({
      check: 'over-time-limit',
      text: "Only per-call limits (options.time_limit in the message) are checked: limits set on the task's decorator or in the worker's configuration are not in the message",
    });
    if (f.running.value.capped)
      notes.push({
        check: 'worker-lost',
        text: `Only the ${f.running.value.rows.length.toLocaleString('en-US')} oldest running tasks were checked`,
      });
  } else unknown.push({ check: 'over-time-limit', why: f.running.why });
  const nc = noConsumerFlags(f);
  flags.push(...nc.flags);
  if (nc.why) unknown.push({ check: 'no-consumer', why: nc.why });
  if ('value' in f.overdue) flags.push(...overdueFlags(f, f.overdue.value));
  else unknown.push({ check: 'overdue', why: f.overdue.why });
  flags.push(...poisonFlags(f));
  return { brokerId: f.brokerId, flags, unknown, notes, overdueSeconds: f.overdueSeconds, readAt: new Date().toISOString() };
}
