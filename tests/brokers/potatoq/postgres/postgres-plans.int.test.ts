// Every read the console sends is planned on potatoq's indexes on a database shaped like a live
// one (tests/support/pg-live-seed.ts: state changes by UPDATE, claimed rows at the heap's end,
// never vacuumed), whatever the statistics say: none, stale (analyzed before the claims), fresh.
// The statements are captured as the adapter sends them, then EXPLAIN ANALYZEd with the read
// sessions' settings; a test fails on a sequential scan of a potatoq table or when a statement
// examines more rows than its bound (a regressed plan reads most of the 40,000-row table).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { seedLive, type LiveSizes, type StatsState } from '@/tests/support/pg-live-seed';
import { dropSchema, migratedSchema, PG_URL, pgAvailable, tableOf, type PgTarget } from '@/tests/support/postgres';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import { READ_SESSION_SETTINGS } from '@/lib/brokers/potatoq/postgres/pool';
import { taskQuery } from '@/tests/support/task-query';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await pgAvailable();

const SIZES: LiveSizes = { queues: 20, waiting: 40_000, running: 2_000, retried: 1_000, dead: 5_000 };
const CAP = 100;
/** Rows of each of scheduled, running and dead the overview reads (below the seeded sizes). */
const SCAN = 1_000;
const WINDOW = 1_000;

// Captures what the console's read sessions send (the pool's clients are pg.Client instances).
const captured: Array<{ text: string; values: unknown[] }> = [];
const original = pg.Client.prototype.query;
function capture(): void {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
    const tagged = (this as unknown as { connectionParameters?: { options?: string } }).connectionParameters?.options;
    if (text && tagged?.includes('enable_seqscan') && !/^(BEGIN|COMMIT|ROLLBACK)/.test(text))
      captured.push({ text, values: Array.isArray(second) ? second : [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Scans of the big tables in a plan, and the rows they examined (returned + filtered out). */
function scans(node: PlanNode, big: Set<string>, out: Array<{ type: string; rel: string; examined: number }> = []) {
  const rel = node['Relation Name'];
  if (rel && big.has(rel)) {
    const per = node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
    out.push({ type: node['Node Type'], rel, examined: per * node['Actual Loops'] });
  }
  for (const p of node.Plans ?? []) scans(p, big, out);
  return out;
}

describe.skipIf(!available)('postgres reads on a live-shaped database use potatoq indexes', () => {
  const states: StatsState[] = ['none', 'stale', 'fresh'];
  const targets = new Map<StatsState, PgTarget>();
  let explain: pg.Client;

  beforeAll(async () => {
    for (const s of states) {
      const t = migratedSchema();
      targets.set(s, t);
      const table = (n: string) => tableOf(t, n);
      await seedLive(PG_URL, { jobs: table('jobs'), dead: table('dead'), results: table('results'), workers: table('workers') }, SIZES, s);
    }
    explain = new pg.Client({
      connectionString: PG_URL,
      options: Object.entries(READ_SESSION_SETTINGS)
        .map(([k, v]) => `-c ${k}=${v}`)
        .join(' '),
    });
    await explain.connect();
    capture();
  });
  afterAll(async () => {
    pg.Client.prototype.query = original;
    await explain?.end().catch(() => undefined);
    for (const t of targets.values()) await dropSchema(t.schema).catch(() => undefined);
  });

  // Each read with the most rows its statements may examine together (table: 47,000 rows).
  const reads: Array<[string, (a: BrokerAdapter) => Promise<unknown>, number]> = [
    ['overview', (a) => a.overview(), SIZES.queues * (CAP + 1) + (CAP + 1) + 3 * (SCAN + 1) + 500],
    ['ready page 1, all queues', (a) => a.listTasks(taskQuery({ state: 'ready', limit: 50 })), 2_500],
    ['ready page 1, one queue', (a) => a.listTasks(taskQuery({ state: 'ready', limit: 50, queue: 'bench-q03' })), 500],
    ['scheduled page 1', (a) => a.listTasks(taskQuery({ limit: 50, state: 'scheduled' })), 500],
    // No index on claimed_at: every running row's key is sorted (bounded by the running rows).
    ['running page 1', (a) => a.listTasks(taskQuery({ limit: 50, state: 'running' })), SIZES.running + 500],
    ['task search', (a) => a.listTasks(taskQuery({ state: 'ready', limit: 50, q: 'order-7' })), WINDOW + 500],
    ['task detail', (a) => a.getTask('r-777'), 10],
    ['dead letters page 1', (a) => a.listDead(ZDeadListQuery.parse({ limit: 100 })), 500],
    // No index on the dead letters' queue: the newest letters are walked until the page is full.
    ['dead letters, one queue', (a) => a.listDead(ZDeadListQuery.parse({ limit: 50, queue: 'bench-q04' })), 50 * SIZES.queues + 500],
    ['dead-letter search', (a) => a.listDead(ZDeadListQuery.parse({ limit: 50, q: 'upstream' })), WINDOW + 500],
    ['dead-letter groups', (a) => a.deadGroups({}), WINDOW + 10],
    ['dead-letter detail', (a) => a.getDead('d-42'), 10],
    ['workers', (a) => a.listWorkers(), 10],
    ['task names', (a) => a.taskNames(), 2 * WINDOW + 10],
  ];

  for (const s of states) {
    describe(`statistics: ${s}`, () => {
      for (const [name, call, bound] of reads) {
        it(`${name}: no sequential scan of a potatoq table, at most ${bound.toLocaleString()} rows examined`, async () => {
          const t = targets.get(s)!;
          const a = createPostgresAdapter({
            id: `plans-${randomBytes(3).toString('hex')}`,
            name: 'plans',
            url: PG_URL,
            readOnly: true,
            options: { ...t.options, countCap: CAP, countScan: SCAN, searchWindow: WINDOW },
          });
          try {
            await a.capabilities();
            captured.length = 0;
            await call(a);
          } finally {
            await a.close();
          }
          const statements = captured.splice(0).filter((c) => !/pg_stats|pg_class|has_table_privilege|information_schema/.test(c.text));
          expect(statements.length).toBeGreaterThan(0);
          const big = new Set(['jobs', 'dead', 'results'].map((x) => t.prefix + x));
          let examined = 0;
          for (const st of statements) {
            const res = await explain.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${st.text}`, st.values);
            const plan = (res.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan;
            const found = scans(plan, big);
            expect(found.filter((f) => f.type === 'Seq Scan').map((f) => `${f.rel}: ${st.text.slice(0, 120)}`)).toEqual([]);
            examined += found.reduce((n, f) => n + f.examined, 0);
          }
          expect(examined).toBeLessThanOrEqual(bound);
        });
      }
    });
  }
});
