import 'server-only';
import { isConsoleError } from '@/lib/brokers/errors';
import { deathKey, type Death, type DeathStore } from './deaths-store';

// Recording deaths as the console sees them, so the dead-letter chart keeps an incident after
// its letters are replayed or discarded. The trend sampler's tick (one instance: the lease
// holder) reads each broker's newest letters, one page, and records those it has not recorded
// yet with their error's fingerprint. Bounded per tick: NEWEST letters per broker, their
// fingerprints within the campaigns' 5 s budget, and a handful of state-store statements.

/** Letters read per broker per tick (one page of the dead list, newest first). */
export const NEWEST = 500;
/** Only letters that died this recently are recorded: older ones were recorded when they were
 *  new, or died before the console looked (the broker's own died times still count them). */
export const RECORD_WINDOW_MS = 2 * 3600_000;
/** Seen deaths are remembered this long after they died (longer than the window: never counted twice). */
export const SEEN_KEEP_MS = 3 * 3600_000;

export interface DeathReads {
  brokers(): string[];
  /** The broker's newest dead letters, at most `limit`, with their died time (null: none kept). */
  newest(broker: string, limit: number): Promise<Array<{ id: string; queue: string; diedAt: string | null }>>;
  /** The fingerprint each id dies of now, where the broker can tell (missing: unknown). */
  fingerprints(broker: string, ids: string[]): Promise<ReadonlyMap<string, string | null>>;
  log?: (event: Record<string, unknown>) => void;
}

/** Brokers whose last pass failed, with what was logged: a broker that stays down is logged
 *  when it fails (or fails otherwise), and again when it recovers, not on every tick. */
const failing = new Map<string, string>();

/** One pass over every broker; a broker that cannot be read is logged and skipped. Answers how
 *  many new deaths each broker had. */
export async function recordDeaths(store: DeathStore, reads: DeathReads, now: number): Promise<Record<string, number>> {
  const log = reads.log ?? ((e) => console.error(JSON.stringify(e)));
  const out: Record<string, number> = {};
  for (const broker of reads.brokers()) {
    try {
      out[broker] = await recordBroker(store, reads, broker, now);
      if (failing.delete(broker)) log({ event: 'console.trends.deaths-recovered', broker });
    } catch (e) {
      // A broker that cannot list its letters (its adapter says why: a browse that would delete them) is
      // skipped quietly every tick; its chart counts what the broker itself says, if anything.
      if (isConsoleError(e) && e.code === 'Unsupported') continue;
      const message = e instanceof Error ? e.message : String(e);
      if (failing.get(broker) === message) continue;
      failing.set(broker, message);
      log({ event: 'console.trends.deaths-failed', broker, message });
    }
  }
  return out;
}

/** One broker's pass: its newest letters, those not recorded yet, with their fingerprints. */
async function recordBroker(store: DeathStore, reads: DeathReads, broker: string, now: number): Promise<number> {
  const letters = (await reads.newest(broker, NEWEST)).flatMap((l) => {
    const diedMs = l.diedAt === null ? NaN : Date.parse(l.diedAt);
    return Number.isFinite(diedMs) && diedMs >= now - RECORD_WINDOW_MS ? [{ id: l.id, queue: l.queue, diedMs }] : [];
  });
  const known = await store.known(broker, letters);
  const fresh = letters.filter((l) => !known.has(deathKey(l.id, l.diedMs)));
  if (!fresh.length) return 0;
  const fps = await reads.fingerprints(
    broker,
    fresh.map((l) => l.id),
  );
  const deaths: Death[] = fresh.map((l) => ({ ...l, fp: fps.get(l.id) ?? '' }));
  return store.record(broker, deaths);
}

/** The deaths reads on the configured brokers, through the service (its read timeout). */
export async function serviceDeathReads(): Promise<DeathReads> {
  const { brokerList, listDead } = await import('@/lib/brokers/service');
  const { ZDeadListQuery } = await import('@/lib/brokers/schema');
  const { fingerprintsBefore } = await import('@/lib/campaigns/record');
  return {
    brokers: () => brokerList().map((b) => b.id),
    newest: async (broker, limit) => (await listDead(broker, ZDeadListQuery.parse({ limit }))).items,
    fingerprints: async (broker, ids) => (await fingerprintsBefore(broker, ids)).fps,
  };
}

/** The sampler's tick: records the brokers' new deaths, then forgets seen deaths past
 *  SEEN_KEEP_MS and buckets past the trends' retention. Never throws (logged). */
export async function tickDeaths(store: DeathStore, reads: DeathReads, now: number, retentionMs: number): Promise<void> {
  try {
    await recordDeaths(store, reads, now);
    await store.prune(now - SEEN_KEEP_MS, now - retentionMs);
  } catch (e) {
    (reads.log ?? ((x) => console.error(JSON.stringify(x))))({
      event: 'console.trends.deaths-failed',
      message: e instanceof Error ? e.message : String(e),
    });
  }
}
