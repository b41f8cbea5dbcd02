import 'server-only';
import { STUCK_IDS, type Diagnosis, type StuckFlag } from '@/lib/brokers/dto';
import { shellQuote } from '@/lib/text/shell';
import { age, CELERY_NEVER_RUNNING, itThem, linkFor, lostHeld, lostUnacked, overTime, plural, type CeleryFacts } from './diagnose';

// The checks over a Celery app's facts (./diagnose.ts): which ran, which could not and why.

const POISON_WHY =
  'Celery workers never stall on a message they cannot decode: they log it and acknowledge (or reject) it, so no message holds a queue up; such messages are not checked here';

function noConsumer(f: CeleryFacts): StuckFlag[] {
  const out: StuckFlag[] = [];
  for (const q of f.queues) {
    const waiting = (q.counts.ready ?? 0) + (q.counts.scheduled ?? 0);
    if (!waiting) continue;
    // RabbitMQ counts consumers itself; on Redis the live workers' `inspect active_queues` say.
    const byBroker = q.consumers !== undefined && q.consumers !== null;
    const none = byBroker ? q.consumers === 0 : !f.live.some((w) => w.queues.includes(q.name));
    if (!none) continue;
    const who = byBroker
      ? 'RabbitMQ counts no consumer on it'
      : f.live.length
        ? `none of the ${plural(f.live.length, 'live worker')} (inspect active_queues) consumes it`
        : `no worker answered the console within ${f.inspectMs} ms`;
    out.push({
      check: 'no-consumer',
      queue: q.name,
      ids: [],
      count: waiting,
      seconds: null,
      cause: `${plural(waiting, 'message')} ${waiting === 1 ? 'waits' : 'wait'} in queue ${q.name} and no live worker consumes it: ${who}.`,
      can: `Start a worker for it (celery -A <app> worker -Q ${shellQuote(q.name)}) or add the queue to a running one (celery -A <app> control add_consumer ${shellQuote(q.name)}). ${
        f.revoke.on
          ? 'Meanwhile the console can revoke or purge what waits.'
          : `Revoke and purge are off here: ${f.revoke.why ?? 'read-only'}.`
      }`,
      cannot: 'The console does not run tasks: only a worker consuming the queue does.',
      link: { page: 'queue', queue: q.name, state: 'ready' },
    });
  }
  return out;
}

function overdue(f: CeleryFacts): StuckFlag[] {
  const out: StuckFlag[] = [];
  const thr = f.overdueSeconds;
  for (const l of 'value' in f.late ? f.late.value : []) {
    const n = `${l.capped ? 'more than ' : ''}${plural(l.count, 'message')}`;
    const consumed = f.live.some((w) => w.queues.includes(l.queue));
    out.push({
      check: 'overdue',
      queue: l.queue,
      ids: l.ids.slice(0, STUCK_IDS),
      count: l.count,
      seconds: l.oldestSeconds,
      cause: `${n} of queue ${l.queue} with an ETA (countdown) due more than ${age(thr)} ago (the oldest ${age(l.oldestSeconds)} ago) still ${l.count === 1 && !l.capped ? 'waits' : 'wait'} in the queue: ${consumed ? 'its live workers are not taking them' : 'no live worker takes them'}.`,
      can: `A worker consuming ${l.queue} takes them and runs them at once: start or check the workers. ${f.revoke.on ? 'The console can revoke them meanwhile.' : ''}`.trim(),
      cannot: 'The console does not run scheduled tasks: workers do.',
      link: linkFor(l.ids, l.count, l.queue, 'ready'),
    });
  }
  // Held by a live worker until their ETA (reserved, or `inspect scheduled`), and not started.
  const now = f.nowMs;
  for (const w of f.live) {
    const late = w.waiting.filter((t) => t.etaMs !== null && t.etaMs < now - thr * 1000 && !w.active.some((a) => a.id === t.id));
    const byQueue = new Map<string, typeof late>();
    for (const t of late) byQueue.set(t.queue ?? '', [...(byQueue.get(t.queue ?? '') ?? []), t]);
    for (const [queue, ts] of byQueue) {
      const oldest = (now - Math.min(...ts.map((t) => t.etaMs!))) / 1000;
      const ids = ts.map((t) => t.id);
      out.push({
        check: 'overdue',
        queue: queue || null,
        ids: ids.slice(0, STUCK_IDS),
        count: ts.length,
        seconds: oldest,
        cause: `${plural(ts.length, 'message')}${queue ? ` of queue ${queue}` : ''} reserved by ${w.host} with an ETA due more than ${age(thr)} ago (the oldest ${age(oldest)} ago) ${ts.length === 1 ? 'has' : 'have'} not started: the worker holds ${itThem(ts.length)} but its pool is busy or blocked.`,
        can: 'Look at the worker on the Workers page: a free pool process starts them; restarting the worker gives them back to the queue.',
        cannot: CELERY_NEVER_RUNNING,
        link: queue ? linkFor(ids, ts.length, queue, 'running') : { page: 'workers' },
      });
    }
  }
  return out;
}

/** Every check over the facts; one the broker cannot run is in `unknown` with why. */
export function diagnoseCelery(f: CeleryFacts): Diagnosis {
  const flags: StuckFlag[] = [];
  const unknown: Diagnosis['unknown'] = [];
  const notes: Diagnosis['notes'] = [];
  const held = 'value' in f.held ? f.held.value.items : [];
  if ('value' in f.held) {
    flags.push(...lostHeld(f, held));
    if (f.held.value.capped)
      notes.push({ check: 'worker-lost', text: `Only the ${held.length.toLocaleString('en-US')} oldest reserved messages were checked` });
  } else if (f.unacked && 'value' in f.unacked) {
    flags.push(...lostUnacked(f, f.unacked.value));
    notes.push({
      check: 'worker-lost',
      text: "RabbitMQ's unacknowledged counts come from its management statistics, which lag by a few seconds (collect_statistics_interval); the messages' ids are not shown",
    });
  } else unknown.push({ check: 'worker-lost', why: f.unacked && 'why' in f.unacked ? f.unacked.why : f.held.why });
  flags.push(...overTime(f, held));
  notes.push({
    check: 'over-time-limit',
    text: `Checked: the tasks live workers report as active, against ${'value' in f.held ? "the message's own time_limit, else " : ''}the worker's --time-limit (inspect stats); limits set on the task's decorator are in neither, so they are not checked`,
  });
  flags.push(...noConsumer(f));
  flags.push(...overdue(f));
  if ('why' in f.late) notes.push({ check: 'overdue', text: `Only messages live workers hold were checked: ${f.late.why}` });
  unknown.push({ check: 'poison', why: POISON_WHY });
  return { brokerId: f.brokerId, flags, unknown, notes, overdueSeconds: f.overdueSeconds, readAt: new Date(f.nowMs).toISOString() };
}
