// potatoq's periodic tasks on the Schedules tab: a REAL `potatoq beat` (the scheduler every
// worker also runs) fires two beat_schedule entries, and the console reads the durable claims
// it writes: the periodic table on SQLite, the periodic-last hash on Redis.
// int-lane: uses redis/0 (a key prefix of its own)
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { dropSchema, migratedSchema, pgAvailable, PG_URL } from '@/tests/support/postgres';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { POTATOQ, ROOT } from '@/tests/support/potatoq-seeder';
import { adapterFor, migratedDb } from '@/tests/support/sqlite-db';
import { dropPrefix, newPrefix, redisAvailable, REDIS_URL, testClient } from '@/tests/support/redis';
import { until } from '@/tests/support/solo-worker';

let beat: ChildProcess | null = null;
let log = '';
afterEach(async () => {
  const b = beat;
  beat = null;
  if (b && b.exitCode === null) await new Promise<void>((r) => (b.on('exit', () => r()), b.kill('SIGTERM')));
});

function startBeat(env: Record<string, string>): void {
  log = '';
  beat = spawn(POTATOQ, ['-A', 'pq_periodic', '--no-color', '--no-emoji', 'beat'], {
    cwd: path.join(ROOT, 'tests/py'),
    env: { ...process.env, PYTHONUNBUFFERED: '1', ...env },
  });
  beat.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  beat.stderr?.on('data', (d: Buffer) => (log += d.toString()));
}

const byName = async (a: BrokerAdapter, name: string) => (await a.listSchedules!()).schedules.find((s) => s.name === name);

describe('potatoq periodic claims on SQLite (real beat)', () => {
  it('lists each entry with its last firing and the period its firings show; nothing to act on', async () => {
    const file = migratedDb();
    const a = adapterFor(file);
    expect((await a.listSchedules!()).schedules).toEqual([]);
    startBeat({ RT_BROKER: `sqlite:///${file}` });
    const one = await until(
      'four firings of pq-every-second',
      async () => {
        const s = await byName(a, 'pq-every-second');
        return s && /last 4 firings|last [5-8] firings/.test(s.words) ? s : null;
      },
      30_000,
      () => log,
    );
    expect(one).toMatchObject({
      id: 'pq-every-second',
      task: null,
      cron: null,
      timeZone: null,
      paused: null,
      nextAt: null,
      payload: null,
      problems: [],
    });
    expect(one.words).toMatch(/^fired about every 1s \(inferred/);
    expect(Date.now() - Date.parse(one.last!.at)).toBeLessThan(10_000);
    expect(one.last).toMatchObject({ jobId: null, link: null });
    const two = await until(
      'pq-every-two',
      () => byName(a, 'pq-every-two'),
      10_000,
      () => log,
    );
    expect(two.last).not.toBeNull();
    expect(a.model.schedules && 'actions' in a.model.schedules && Object.keys(a.model.schedules.actions)).toEqual([]);
    expect(a.scheduleAction).toBeUndefined();
    await a.close();
  });
});

const pgUp = await pgAvailable();
(pgUp ? describe : describe.skip)('potatoq periodic claims on PostgreSQL (real beat)', () => {
  it("reads the claims in the broker's schema and table prefix", async () => {
    const t = migratedSchema('pqs_');
    const a = createPostgresAdapter({ id: 'pg', name: 'PG', url: PG_URL, readOnly: true, options: t.options });
    try {
      startBeat({ RT_BROKER: PG_URL, PQ_PG_OPTIONS: JSON.stringify(t.options) });
      const s = await until(
        'four firings of pq-every-second',
        async () => {
          const x = await byName(a, 'pq-every-second');
          return x && /last [4-8] firings/.test(x.words) ? x : null;
        },
        30_000,
        () => log,
      );
      expect(s.words).toMatch(/^fired about every 1s/);
      expect(s.problems).toEqual([]);
    } finally {
      await a.close();
      await dropSchema(t.schema);
    }
  });
});

const redisUp = await redisAvailable();
(redisUp ? describe : describe.skip)('potatoq periodic claims on Redis (real beat)', () => {
  it('lists each entry with its latest firing only, and says the period cannot be inferred', async () => {
    const prefix = newPrefix();
    const client = testClient();
    const a = createRedisAdapter({ id: 'r', name: 'Redis', url: REDIS_URL, readOnly: false, options: { global_keyprefix: prefix } });
    try {
      expect((await a.listSchedules!()).notes[0]).toMatch(/periodic-last is empty/);
      startBeat({ RT_BROKER: REDIS_URL, RT_PREFIX: prefix });
      const first = await until(
        'pq-every-second',
        () => byName(a, 'pq-every-second'),
        30_000,
        () => log,
      );
      const later = await until(
        'a later firing',
        async () => {
          const s = await byName(a, 'pq-every-second');
          return s && s.last!.at > first.last!.at ? s : null;
        },
        10_000,
        () => log,
      );
      expect(later.words).toMatch(/only its latest firing is recorded/);
      expect(later.problems).toEqual([]);
      // What the console read is potatoq's own hash.
      const raw = await client.hget(`${prefix}:periodic-last`, 'pq-every-second');
      expect(later.last!.at).toBe(new Date(Number(raw) * 1000).toISOString());
      expect(a.model.schedules && 'cannotSee' in a.model.schedules && a.model.schedules.cannotSee.join(' ')).toMatch(/beat_schedule/);
    } finally {
      await a.close();
      await dropPrefix(client, prefix);
      client.disconnect();
    }
  });
});
