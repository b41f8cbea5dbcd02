// The overview's first line and the order of its cards: which brokers are down, slow or have
// stuck work, from what the cards already polled. Pure: the board feeds it the query cache.

/** A broker that answered slower than this is "slow" (its overview read, measured by the service). */
export const SLOW_MS = 2000;

export type BrokerHealth = 'down' | 'slow' | 'stuck' | 'up' | 'unknown';

/** What the cards polled for one broker: undefined while not read yet. */
export interface BrokerSignals {
  id: string;
  /** The overview's latest read failed (its last good data may still be on the card). */
  down: boolean;
  /** The latest good overview's read time; undefined while none was read. */
  readMs?: number;
  /** Stuck-work flags of the latest diagnosis; undefined while unknown. */
  stuck?: number;
  /** Letters that died in the last hour; undefined while unknown. */
  deadLastHour?: number;
  /** Error fingerprints of its dead letters; undefined while unknown. */
  fingerprints?: readonly string[];
}

export interface OverviewSummary {
  up: number;
  slow: number;
  down: number;
  /** Brokers not read yet. */
  unknown: number;
  /** Stuck-work flags over the brokers that answered; null while none did. */
  stuck: number | null;
  deadLastHour: number | null;
  /** Fingerprints not seen at the last look from this browser; null on the first look. */
  newFingerprints: number | null;
  health: Record<string, BrokerHealth>;
  /** Each broker's place: troubled first (down, slow, stuck), then the rest, config order within. */
  order: Record<string, number>;
}

const RANK: Record<BrokerHealth, number> = { down: 0, slow: 1, stuck: 2, up: 3, unknown: 3 };

export function healthOf(s: BrokerSignals): BrokerHealth {
  if (s.down) return 'down';
  if (s.readMs === undefined) return 'unknown';
  if (s.readMs > SLOW_MS) return 'slow';
  return s.stuck ? 'stuck' : 'up';
}

const sumKnown = (xs: Array<number | undefined>): number | null =>
  xs.some((x) => x !== undefined) ? xs.reduce<number>((n, x) => n + (x ?? 0), 0) : null;

/** `seen`: the fingerprints per broker at this browser's last look (null: it never looked). */
export function summarise(brokers: readonly BrokerSignals[], seen: Record<string, readonly string[]> | null): OverviewSummary {
  const health: Record<string, BrokerHealth> = {};
  for (const b of brokers) health[b.id] = healthOf(b);
  const count = (h: BrokerHealth) => brokers.filter((b) => health[b.id] === h).length;
  const ranked = brokers.map((b, i) => ({ id: b.id, key: RANK[health[b.id]!] * brokers.length + i }));
  ranked.sort((a, b) => a.key - b.key);
  let newFingerprints: number | null = null;
  if (seen) {
    newFingerprints = 0;
    for (const b of brokers) {
      const before = seen[b.id];
      // A broker this browser never looked at has no "new": its letters are the baseline.
      if (!b.fingerprints || !before) continue;
      const known = new Set(before);
      newFingerprints += b.fingerprints.filter((f) => !known.has(f)).length;
    }
  }
  return {
    up: count('up') + count('stuck'),
    slow: count('slow'),
    down: count('down'),
    unknown: count('unknown'),
    stuck: sumKnown(brokers.filter((b) => !b.down).map((b) => b.stuck)),
    deadLastHour: sumKnown(brokers.map((b) => b.deadLastHour)),
    newFingerprints,
    health,
    order: Object.fromEntries(ranked.map((r, i) => [r.id, i])),
  };
}

/** Letters that died in the last hour, from a trend's buckets: its last hour of buckets (the
 *  window ends at the bucket after now, so "the last hour" is to the bucket: 15 minutes on a day). */
export function lastHourOf(t: { bucketSeconds: number; counts: readonly number[] }): number {
  const n = Math.max(1, Math.round(3600 / t.bucketSeconds));
  return t.counts.slice(-n).reduce((a, b) => a + b, 0);
}
