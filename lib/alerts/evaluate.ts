import { DEAD, countOf, defaultState, type BrokerOverview, type QueueStats } from '@/lib/brokers/dto';
import type { AlertTarget } from './schema';

// Each target's value from one read of its broker. Pure, apart from the memory it is handed:
// the previous dead-letter count (for a rate) and the fingerprints seen when watching began.

export interface AlertReading {
  target: AlertTarget;
  /** null: unknown now (the broker did not answer, the system cannot tell, a first read). */
  value: number | null;
  breached: boolean;
  /** Why the value is unknown, in words. */
  unknown?: string;
}

export interface AlertFacts {
  at: number;
  /** The broker's overview, null when it did not answer. */
  overview: BrokerOverview | null;
  /** Why the broker gave nothing to judge (its read's error, no answer within the budget); absent: it answered. */
  down?: string;
  /** Fingerprints of the target's dead-letter groups (newFingerprint targets), null when unread. */
  fingerprints?: string[] | null;
  /** Schedules of the broker with a problem (missedSchedule targets), null when unread. */
  scheduleProblems?: number | null;
}

export interface AlertMemory {
  dead: Map<string, { at: number; count: number }>;
  seen: Map<string, Set<string>>;
}

export const newAlertMemory = (): AlertMemory => ({ dead: new Map(), seen: new Map() });

const unknown = (target: AlertTarget, why: string): AlertReading => ({ target, value: null, breached: false, unknown: why });

/** What one broker's sample in a metrics snapshot gives to judge. A read that did not finish
 *  within the budget is not judged by the last values it had (stale): its targets are unknown,
 *  and `unreachable` is 1. */
export function brokerFacts(
  b: { ok: boolean; stale?: boolean; error: { message: string } | null; overview: BrokerOverview | null } | undefined,
): Pick<AlertFacts, 'overview' | 'down'> {
  if (!b) return { overview: null, down: 'the broker was not read' };
  if (b.stale) return { overview: null, down: 'no answer within the metrics budget; its last values are not judged' };
  if (!b.ok || !b.overview) return { overview: null, down: b.error?.message ?? 'its read failed' };
  return { overview: b.overview };
}

export function evaluateTarget(t: AlertTarget, f: AlertFacts, mem: AlertMemory): AlertReading {
  const o = f.overview;
  if (t.kind === 'unreachable') return { target: t, value: o ? 0 : 1, breached: !o };
  if (!o) return unknown(t, f.down ? `the broker did not answer: ${f.down}` : 'the broker did not answer');
  const queues = t.queue ? o.queues.filter((q) => q.name === t.queue) : o.queues;
  if (t.queue && !queues.length && t.kind !== 'missedSchedule') return unknown(t, `the broker lists no queue "${t.queue}"`);
  const waitKey = o.model ? defaultState(o.model.states)?.key : undefined;
  const waiting = (q: QueueStats) => (waitKey ? countOf(q, waitKey) : null);
  const reading = (value: number, limit = 1): AlertReading => ({
    target: t,
    value,
    breached: t.threshold !== undefined ? value > t.threshold : value >= limit,
  });
  switch (t.kind) {
    case 'oldestWaiting': {
      let worst: number | null = null;
      for (const q of queues) {
        const age = q.oldestWaitingAt ? Math.max(0, (f.at - Date.parse(q.oldestWaitingAt)) / 1000) : waiting(q) === 0 ? 0 : null;
        if (age !== null && Number.isFinite(age)) worst = Math.max(worst ?? 0, age);
      }
      return worst === null ? unknown(t, 'the system does not say when its oldest waiting task was enqueued') : reading(worst);
    }
    case 'deadPerMinute': {
      const counts = queues.map((q) => countOf(q, DEAD));
      if (counts.some((c) => c === null)) return unknown(t, 'the system cannot count its dead letters');
      const now = counts.reduce<number>((s, c) => s + (c ?? 0), 0);
      const prev = mem.dead.get(t.id);
      mem.dead.set(t.id, { at: f.at, count: now });
      if (!prev || f.at <= prev.at) return unknown(t, 'first read: a rate needs two');
      // A gauge: replays and discards lower it, only increases are new letters.
      return reading((Math.max(0, now - prev.count) * 60_000) / (f.at - prev.at));
    }
    case 'newFingerprint': {
      if (!f.fingerprints) return unknown(t, 'the dead letters could not be grouped');
      const seen = mem.seen.get(t.id);
      if (!seen) {
        mem.seen.set(t.id, new Set(f.fingerprints));
        return reading(0);
      }
      return reading(f.fingerprints.filter((x) => !seen.has(x)).length);
    }
    case 'noConsumer': {
      let verdict: number | null = 0;
      for (const q of queues) {
        const w = waiting(q);
        if (w === 0) continue;
        const nobody = typeof q.consumers === 'number' ? q.consumers === 0 : o.workers ? o.workers.alive === 0 : null;
        if (nobody === null || w === null) verdict = verdict === 1 ? 1 : null;
        else if (nobody) verdict = 1;
      }
      return verdict === null ? unknown(t, 'the system reports neither consumers nor workers') : reading(verdict);
    }
    case 'stuck':
      return reading(queues.filter((q) => q.blockedBy).length);
    case 'missedSchedule':
      return typeof f.scheduleProblems === 'number' ? reading(f.scheduleProblems) : unknown(t, 'the schedules could not be read');
    default: {
      const never: never = t.kind;
      return never;
    }
  }
}
