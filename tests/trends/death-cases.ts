// The behaviour of the recorded deaths on both state stores, run against SQLite (unit: a temp
// file) and PostgreSQL (int: the real server). `open()` makes another console instance's SQL on
// the same store (its own handle or pool, as another process would have).
import { afterEach, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import type { SqlRunner } from '@/lib/state/sql';
import { createDeathStore, MINUTE_MS } from '@/lib/trends/deaths-store';
import { recordDeaths, RECORD_WINDOW_MS, SEEN_KEEP_MS, type DeathReads } from '@/lib/trends/deaths';

export function deathStoreCases(open: () => Promise<SqlRunner>, broker: () => string): void {
  const opened: SqlRunner[] = [];
  const make = async () => {
    const db = await open();
    opened.push(db);
    return createDeathStore(db);
  };
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close();
  });
  const hour = (fromMs: number) => ({ fromMs, bucketMs: MINUTE_MS, buckets: 60 });
  const t0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;

  it('counts each death once across instances, a second death of one id again, into its minute', async () => {
    const [a, b] = [await make(), await make()];
    const bk = broker();
    const d = (id: string, min: number, fp = 'fp-a', queue = 'q1') => ({ id, diedMs: t0 + min * MINUTE_MS + 1234, queue, fp });
    expect(await a.record(bk, [d('x', 1), d('y', 1), d('z', 2, 'fp-b', 'q2')])).toBe(3);
    // Another instance sees the same letters (and a new one, and x dying again later).
    const [n1, n2] = await Promise.all([b.record(bk, [d('x', 1), d('w', 5)]), a.record(bk, [d('x', 1), d('x', 9)])]);
    expect(n1 + n2).toBe(2);
    const all = await b.read({ broker: bk, ...hour(t0) });
    expect([all[1], all[2], all[5], all[9]]).toEqual([2, 1, 1, 1]);
    expect(all.reduce((s, c) => s + c, 0)).toBe(5);
    expect((await a.read({ broker: bk, ...hour(t0), queue: 'q2' })).reduce((s, c) => s + c, 0)).toBe(1);
    expect((await a.read({ broker: bk, ...hour(t0), group: 'fp-a' })).reduce((s, c) => s + c, 0)).toBe(4);
    // 15-minute buckets sum their minutes.
    expect((await a.read({ broker: bk, fromMs: t0, bucketMs: 15 * MINUTE_MS, buckets: 4 }))[0]).toBe(5);
    // Every recorded death of the ids asked, by key: x's two, none of v.
    expect(await a.known(bk, [d('x', 10), d('v', 1)])).toEqual(new Set([`${d('x', 1).diedMs}|x`, `${d('x', 9).diedMs}|x`]));
  });

  it('records only new, recent, dated letters, with their fingerprints, and forgets by age', async () => {
    const s = await make();
    const bk = broker();
    const now = Date.now();
    const iso = (ago: number) => new Date(now - ago).toISOString();
    const asked: string[][] = [];
    const reads: DeathReads = {
      brokers: () => [bk],
      newest: async () => [
        { id: 'new', queue: 'q', diedAt: iso(60_000) },
        { id: 'undated', queue: 'q', diedAt: null },
        { id: 'old', queue: 'q', diedAt: iso(RECORD_WINDOW_MS + 60_000) },
      ],
      fingerprints: async (_b, ids) => (asked.push(ids), new Map(ids.map((i) => [i, 'fp-new']))),
    };
    expect(await recordDeaths(s, reads, now)).toEqual({ [bk]: 1 });
    expect(await recordDeaths(s, reads, now)).toEqual({ [bk]: 0 });
    expect(asked).toEqual([['new']]);
    const w = { broker: bk, fromMs: now - 3_600_000, bucketMs: 3_600_000, buckets: 1, group: 'fp-new' };
    expect(await s.read(w)).toEqual([1]);
    // Seen rows go after SEEN_KEEP_MS; the buckets stay until the retention.
    await s.prune(now + SEEN_KEEP_MS, now - 7 * 86_400_000);
    expect(await s.known(bk, [{ id: 'new', diedMs: Date.parse(iso(60_000)) }])).toEqual(new Set());
    expect(await s.read(w)).toEqual([1]);
    await s.prune(now, now + 1);
    expect(await s.read(w)).toEqual([0]);
  });

  it('logs a broker that cannot be read, skips one that cannot list quietly, and records the others', async () => {
    const s = await make();
    const [down, up, v3] = [broker(), broker(), broker()];
    const logged: unknown[] = [];
    let refusal: string | null = 'connection refused';
    const diedAt = new Date().toISOString();
    const reads: DeathReads = {
      brokers: () => [down, up, v3],
      newest: async (b) => {
        if (b === down && refusal) throw new Error(refusal);
        if (b === v3) throw new ConsoleError('Unsupported', 'browsing would delete the letters');
        return [{ id: 'a', queue: 'q', diedAt }];
      },
      fingerprints: async () => new Map(),
      log: (e) => logged.push(e),
    };
    expect(await recordDeaths(s, reads, Date.now())).toEqual({ [up]: 1 });
    const failed = (message: string) => ({ event: 'console.trends.deaths-failed', broker: down, message });
    expect(logged).toEqual([failed('connection refused')]);
    // A broker that stays down is not logged again every tick; a new failure and the recovery are.
    await recordDeaths(s, reads, Date.now());
    expect(logged).toHaveLength(1);
    refusal = 'timed out';
    await recordDeaths(s, reads, Date.now());
    refusal = null;
    expect(await recordDeaths(s, reads, Date.now())).toEqual({ [up]: 0, [down]: 1 });
    expect(logged).toEqual([failed('connection refused'), failed('timed out'), { event: 'console.trends.deaths-recovered', broker: down }]);
  });
}
