// PostgreSQL-specific behaviour of the adapter on a real server: never DDL, a read-only role,
// the session guards (timeouts, application_name), NOTIFY on potatoq's channels, capped
// counts, bounded search, 10,000 ids per call and two consoles racing on 1,000 letters.
import { execFileSync } from 'node:child_process';
import { ZEnqueueInput } from '@/lib/brokers/enqueue-input';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import { channelFor } from '@/lib/brokers/potatoq/postgres/names';
import {
  dropSchema,
  messageSql,
  migratedSchema,
  newSchemaName,
  PG_URL,
  pgAvailable,
  seedDeadLetters,
  sqlAdmin,
  tableOf,
  type PgTarget,
} from '@/tests/support/postgres';
import { taskQuery } from '@/tests/support/task-query';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await pgAvailable();

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});
function adapter(options: Record<string, unknown>, extra: { readOnly?: boolean; url?: string } = {}): BrokerAdapter {
  const a = createPostgresAdapter({
    id: `pg-${randomBytes(3).toString('hex')}`,
    name: 'pg',
    url: extra.url ?? PG_URL,
    readOnly: extra.readOnly ?? false,
    options,
  });
  cleanups.push(() => a.close());
  return a;
}
function schema(prefix = 'potatoq_'): PgTarget {
  const t = migratedSchema(prefix);
  cleanups.push(() => dropSchema(t.schema));
  return t;
}
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe.skipIf(!available)('postgres adapter: schema and permissions', () => {
  it("reports a schema without potatoq's tables as NotMigrated and creates nothing", async () => {
    const empty = newSchemaName();
    await sqlAdmin(`CREATE SCHEMA ${empty}`);
    cleanups.push(() => dropSchema(empty));
    for (const options of [{ schema: empty }, { schema: `${empty}_absent` }]) {
      const a = adapter(options);
      for (const call of [() => a.overview(), () => a.listWorkers(), () => a.capabilities(), () => a.purge('default')]) {
        const err = await errorOf(call());
        expect(isConsoleError(err) && [err.code, err.message.includes('run `potatoq migrate`')]).toEqual(['NotMigrated', true]);
      }
    }
    expect(
      await sqlAdmin(`SELECT table_name FROM information_schema.tables WHERE table_schema IN ($1, $2)`, [empty, `${empty}_absent`]),
    ).toEqual([]);
    expect(await sqlAdmin(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [`${empty}_absent`])).toEqual([]);
  });

  it('gives a SELECT-only role a read-only console that says why', async () => {
    const t = schema();
    const role = `pqt_ro_${randomBytes(4).toString('hex')}`;
    // A password, so the role can sign in whatever the server's loopback rule (trust or scram).
    await sqlAdmin(`CREATE ROLE ${role} LOGIN PASSWORD '${role}'`);
    cleanups.push(() => sqlAdmin(`DROP OWNED BY ${role}; DROP ROLE ${role}`));
    await sqlAdmin(`GRANT USAGE ON SCHEMA ${t.schema} TO ${role}; GRANT SELECT ON ALL TABLES IN SCHEMA ${t.schema} TO ${role}`);
    await sqlAdmin(
      `INSERT INTO ${tableOf(t, 'jobs')} (id, queue, task, state, payload) VALUES ('ro-1', 'ro', 'x.ro', 1, ${messageSql("'ro-1'", 'x.ro', "'ro'", '1')})`,
    );
    const a = adapter(t.options, { url: PG_URL.replace(/\/\/[^@/]*@/, `//${role}:${role}@`) });
    const caps = await a.capabilities();
    for (const k of ['replay', 'discard', 'revoke', 'purge', 'enqueue'] as const) {
      expect(caps[k].on).toBe(false);
      expect(caps[k].why).toContain(role);
    }
    expect(caps.browseDead.on && caps['list:ready']?.on && caps.workers.on).toBe(true);
    expect((await a.overview()).readOnly).toBe(true);
    expect((await a.listTasks(taskQuery({ state: 'ready', queue: 'ro' }))).items.map((x) => x.id)).toEqual(['ro-1']);
    const err = await errorOf(a.revoke(['ro-1']));
    expect(isConsoleError(err) && err.code).toBe('ReadOnly');
    expect(await sqlAdmin(`SELECT id FROM ${tableOf(t, 'jobs')}`)).toEqual([{ id: 'ro-1' }]);
  });

  it('serves several brokers at once, each seeing only its own schema and prefix', async () => {
    const [x, y] = [schema('potatoq_'), schema('other_')];
    for (const [t, id] of [
      [x, 'in-x'],
      [y, 'in-y'],
    ] as const) {
      await sqlAdmin(
        `INSERT INTO ${tableOf(t, 'jobs')} (id, queue, task, state, payload) VALUES ('${id}', 'shared', 'x.s', 1, ${messageSql(`'${id}'`, 'x.s', "'shared'", '1')})`,
      );
    }
    const [ax, ay] = [adapter(x.options), adapter(y.options)];
    const [lx, ly] = await Promise.all([
      ax.listTasks(taskQuery({ state: 'ready', queue: 'shared' })),
      ay.listTasks(taskQuery({ state: 'ready', queue: 'shared' })),
    ]);
    expect([lx.items.map((i) => i.id), ly.items.map((i) => i.id)]).toEqual([['in-x'], ['in-y']]);
    expect((await ay.revoke(['in-x'])).succeeded[0]?.message).toContain('no waiting task');
    expect(await sqlAdmin(`SELECT id FROM ${tableOf(x, 'jobs')}`)).toEqual([{ id: 'in-x' }]);
  });

  it('turns actions off when configured read-only even with full privileges', async () => {
    const t = schema();
    const a = adapter(t.options, { readOnly: true });
    expect((await a.capabilities()).enqueue).toEqual({ on: false, why: 'configured read-only' });
    const err = await errorOf(a.enqueue(ZEnqueueInput.parse({ task: 'x.y' })));
    expect(isConsoleError(err) && err.code).toBe('ReadOnly');
  });
});

describe.skipIf(!available)('postgres adapter: sessions that cannot hurt production', () => {
  it('names its sessions and keeps no transaction open between calls', async () => {
    const t = schema();
    const a = adapter(t.options);
    await Promise.all([a.overview(), a.listDead(ZDeadListQuery.parse({})), a.replayDead(['nothing'])]);
    const sessions = await sqlAdmin<{ state: string; xact: boolean }>(
      `SELECT state, xact_start IS NOT NULL AS xact FROM pg_stat_activity WHERE application_name = $1`,
      [`potatoq-console ${a.id}`],
    );
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.length).toBeLessThanOrEqual(8); // 6 read + 2 write connections at most
    expect(sessions.every((s) => s.state === 'idle' && !s.xact)).toBe(true);
  });

  it('gives up on a blocked read after statement_timeout and on a locked letter after lock_timeout', async () => {
    const t = schema();
    const [id] = await seedDeadLetters(t, 1, 'locks', 'lk');
    const a = adapter({ ...t.options, statementTimeoutMs: 400, lockTimeoutMs: 300 });
    const holder = new pg.Client({ connectionString: PG_URL });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${tableOf(t, 'dead')} WHERE id = $1 FOR UPDATE`, [id]);
    const started = Date.now();
    const r = await a.replayDead([id!]);
    expect(r.failed).toEqual([{ id, outcome: 'error', message: expect.stringContaining('lock_timeout') }]);
    await holder.query(`LOCK TABLE ${tableOf(t, 'workers')} IN ACCESS EXCLUSIVE MODE`);
    const err = await errorOf(a.listWorkers());
    expect(isConsoleError(err) && err.code).toBe('BrokerTimeout');
    expect(Date.now() - started).toBeLessThan(5000);
    await holder.query('ROLLBACK');
    expect((await sqlAdmin(`SELECT count(*)::int AS n FROM ${tableOf(t, 'dead')}`))[0]).toEqual({ n: 1 });
    expect((await a.replayDead([id!])).succeeded).toHaveLength(1);
  });
});

async function listen(channels: string[]): Promise<{ got: string[]; close: () => Promise<void> }> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  const got: string[] = [];
  c.on('notification', (m) => got.push(m.channel));
  for (const ch of channels) await c.query(`LISTEN "${ch.replace(/"/g, '""')}"`);
  return { got, close: () => c.end() };
}
const settle = () => new Promise((r) => setTimeout(r, 300));

describe.skipIf(!available)('postgres adapter: NOTIFY on potatoq channels', () => {
  it('notifies the queue channel when enqueueing and replaying, not for scheduled tasks or purges', async () => {
    const t = schema();
    const a = adapter(t.options);
    const long = `q-${'é'.repeat(60)}`; // > 63 characters: potatoq uses the sha1 form
    expect(channelFor(long)).toMatch(/^potatoq:[0-9a-f]{40}$/);
    expect(channelFor('short')).toBe('potatoq:short');
    const l = await listen([channelFor('nq'), channelFor(long)]);
    cleanups.push(l.close);
    await a.enqueue(ZEnqueueInput.parse({ task: 'x.n', queue: 'nq' }));
    await settle();
    expect(l.got).toEqual(['potatoq:nq']);
    await a.enqueue(ZEnqueueInput.parse({ task: 'x.n', queue: 'nq', countdown: 600 }));
    await a.purge('nq');
    await settle();
    expect(l.got).toEqual(['potatoq:nq']);
    const [letter] = await seedDeadLetters(t, 1, long, 'nt');
    expect((await a.replayDead([letter!])).succeeded).toHaveLength(1);
    await settle();
    expect(l.got).toEqual(['potatoq:nq', channelFor(long)]);
  });
});

describe.skipIf(!available)('postgres adapter: scale', () => {
  it('caps counts and reports the planner estimate instead of counting everything', async () => {
    const t = schema();
    await sqlAdmin(
      `INSERT INTO ${tableOf(t, 'jobs')} (id, queue, task, state, payload)
       SELECT 'c-' || i, 'big', 'x.c', 1, ${messageSql("'c-' || i", 'x.c', "'big'", 'i::text')} FROM generate_series(1, 60) i`,
    );
    await seedDeadLetters(t, 30, 'big', 'cd');
    await sqlAdmin(`ANALYZE ${tableOf(t, 'jobs')}; ANALYZE ${tableOf(t, 'dead')}`);
    const o = await adapter({ ...t.options, countCap: 25 }).overview();
    const big = o.queues.find((q) => q.name === 'big')!;
    expect(big.counts.ready).toBe(25);
    expect(big.capped?.ready?.atLeast).toBe(25);
    expect(big.capped?.ready?.estimate).toBeGreaterThan(25);
    // Dead letters are counted by one scan of every queue's (countScan): 30 are all read, exact.
    expect(big.dead).toBe(30);
    expect(big.capped?.dead).toBeUndefined();
    expect(o.totalsCapped?.ready?.atLeast).toBe(25);
    const scanned = (await adapter({ ...t.options, countScan: 25 }).overview()).queues.find((q) => q.name === 'big')!;
    expect(scanned.capped?.dead?.atLeast).toBe(26);
    expect(scanned.capped?.dead?.estimate).toBeGreaterThanOrEqual(26);
    const exact = await adapter(t.options).overview();
    expect(exact.queues.find((q) => q.name === 'big')).toMatchObject({ counts: { ready: 60 }, dead: 30 });
    expect(exact.queues.find((q) => q.name === 'big')?.capped).toBeUndefined();
  });

  it('counts the queues the last overview found at once, and still answers what the list says now', async () => {
    const t = schema();
    const J = tableOf(t, 'jobs');
    const add = (queue: string, from: number, n: number) =>
      sqlAdmin(
        `INSERT INTO ${J} (id, queue, task, state, payload)
         SELECT '${queue}-' || i, '${queue}', 'x.m', 1, ${messageSql(`'${queue}-' || i`, 'x.m', `'${queue}'`, 'i::text')}
         FROM generate_series(${from}, ${from + n - 1}) i`,
      );
    await add('qa', 1, 4);
    await add('qb', 1, 2);
    const a = adapter(t.options);
    const ready = async () =>
      Object.fromEntries((await a.overview()).queues.filter((q) => (q.counts.ready ?? 0) > 0).map((q) => [q.name, q.counts.ready]));
    expect(await ready()).toEqual({ qa: 4, qb: 2 });
    // qa drained, qb grew, qc is new: the next overview counts qa and qb before it has the list.
    await sqlAdmin(`DELETE FROM ${J} WHERE queue = 'qa'`);
    await add('qb', 3, 5);
    await add('qc', 1, 3);
    expect(await ready()).toEqual({ qb: 7, qc: 3 });
    const o = await a.overview();
    expect(o.queues.find((q) => q.name === 'qc')?.blockedBy ?? null).toBeNull();
    expect(o.queues.find((q) => q.name === 'qa')).toBeUndefined();
  });

  it('lists ready tasks of all queues in claim order and bounds text search to the newest rows', async () => {
    const t = schema();
    await sqlAdmin(
      `INSERT INTO ${tableOf(t, 'jobs')} (id, queue, task, state, priority, payload)
       SELECT 'm-' || lpad(i::text, 3, '0'), 'mq' || (i % 3), 'x.m', 1, i % 4, ${messageSql("'m-' || lpad(i::text, 3, '0')", 'x.m', "'mq' || (i % 3)", 'i::text')}
       FROM generate_series(1, 40) i`,
    );
    const a = adapter({ ...t.options, searchWindow: 10 });
    const expected = (
      await sqlAdmin<{ id: string }>(`SELECT id FROM ${tableOf(t, 'jobs')} WHERE state = 1 ORDER BY priority DESC, seq`)
    ).map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await a.listTasks(taskQuery({ state: 'ready', limit: 7, cursor }));
      seen.push(...page.items.map((x) => x.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected);
    const hits = await a.listTasks(taskQuery({ state: 'ready', q: '"args":[' }));
    expect(hits.searchedNewest).toBe(10);
    expect(hits.items.map((x) => x.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m-0${31 + i}`));
  });

  it('replays 10,000 dead letters in one call with per-id outcomes', async () => {
    const t = schema();
    const ids = await seedDeadLetters(t, 10_000, 'bulk', 'b');
    const a = adapter(t.options);
    const started = Date.now();
    const r = await a.replayDead([...ids, 'b-missing']);
    const ms = Date.now() - started;
    expect(r.succeeded).toHaveLength(10_000);
    expect(r.failed).toEqual([{ id: 'b-missing', outcome: 'missing', message: expect.any(String) }]);
    expect(ms).toBeLessThan(20_000);
    const [counts] = await sqlAdmin<{ jobs: number; dead: number }>(
      `SELECT (SELECT count(*)::int FROM ${tableOf(t, 'jobs')} WHERE state = 1) AS jobs, (SELECT count(*)::int FROM ${tableOf(t, 'dead')}) AS dead`,
    );
    expect(counts).toEqual({ jobs: 10_000, dead: 0 });
    console.info(`replayed 10,000 letters in ${ms} ms (${Math.round(10_000 / (ms / 1000))}/s)`);
  });

  it('replays each of 1,000 letters exactly once when two consoles replay them at the same time', async () => {
    const t = schema();
    const ids = await seedDeadLetters(t, 1000, 'race', 'r');
    const [a, b] = [adapter(t.options), adapter(t.options)];
    const [ra, rb] = await Promise.all([a.replayDead(ids), b.replayDead([...ids].reverse())]);
    const ok = [...ra.succeeded, ...rb.succeeded].map((o) => o.id).sort();
    expect(ok).toEqual([...ids].sort());
    expect([...ra.failed, ...rb.failed].every((o) => o.outcome === 'missing')).toBe(true);
    const [counts] = await sqlAdmin<{ jobs: number; distinct: number; dead: number }>(
      `SELECT count(*)::int AS jobs, count(DISTINCT id)::int AS distinct, (SELECT count(*)::int FROM ${tableOf(t, 'dead')}) AS dead FROM ${tableOf(t, 'jobs')}`,
    );
    expect(counts).toEqual({ jobs: 1000, distinct: 1000, dead: 0 });
  });
});
