// `npm run bench:campaigns`: what a campaign's follow-up costs per poll, for a 100,000-task
// campaign beside a 1,000-task one, on a potatoq SQLite broker file (results, dead letters and
// waiting tasks as potatoq writes them) and a SQLite state store. Counts the statements each
// poll runs on the broker and on the state store, and times it beside potatoq's own
// `potatoq result <id>` for one id. A script, not a test; its files are removed at the end.
// See docs/campaigns.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import { MIN_POLL_MS, pollCampaign } from '@/lib/campaigns/follow';
import { createCampaignStore } from '@/lib/campaigns/store';
import { openStateDbForTests, type SqlRunner } from '@/lib/state/sql';
import { potatoqCli, potatoqEnv, timeCli } from './potatoq-side';

const BIG = 100_000;
const SMALL = 1_000;
const POLLS = 20;
const log = (s: string) => console.log(s);

/** Every statement a connection prepares, counted (each read prepares its statement). */
let brokerStatements = 0;
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (this: Database.Database, sql: string) {
  if (/potatoq_/.test(sql)) brokerStatements++;
  return prepare.call(this, sql);
} as typeof prepare;

function counted(db: SqlRunner): SqlRunner & { n: number } {
  const c = {
    n: 0,
    run: (sql: string, p: unknown[]) => (c.n++, db.run(sql, p)),
    all: <T>(sql: string, p: unknown[]) => (c.n++, db.all<T>(sql, p)),
    batch: (steps: ReadonlyArray<readonly [string, unknown[]]>) => ((c.n += steps.length), db.batch(steps)),
    close: () => db.close(),
  };
  return c as SqlRunner & { n: number };
}

/** potatoq's rows for ids cp-0..: half with a SUCCESS result, a fifth dead (FAILURE result and
 *  letter), a tenth waiting, a fifth with nothing left (their results expired). */
function seed(file: string, n: number): void {
  const db = new Database(file);
  const now = Date.now() / 1000;
  const msg = (i: string) =>
    `'{"task":"cp.half","args":[1],"kwargs":{},"id":"' || ${i} || '","queue":"cp","root_id":"' || ${i} || '","enqueued_at":1796000000.5,"v":1}'`;
  db.exec(`WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < ${n - 1})
    INSERT INTO potatoq_results (id, state, payload, expires_at)
    SELECT 'cp-' || i, CASE WHEN i % 10 < 5 THEN 'SUCCESS' ELSE 'FAILURE' END,
      CASE WHEN i % 10 < 5 THEN '{"status":"SUCCESS","result":2,"traceback":null,"date_done":${now},"task_id":"cp-' || i || '"}'
      ELSE '{"status":"FAILURE","result":{"exc_type":"ValueError","exc_message":["card declined"]},"traceback":"Traceback (most recent call last):\\n  File \\"/srv/app/cp.py\\", line 3, in half\\nValueError: card ' || i || ' declined","date_done":${now},"task_id":"cp-' || i || '"}' END,
      ${now + 86400} FROM g WHERE i % 10 < 7`);
  db.exec(`WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < ${n - 1})
    INSERT INTO potatoq_dead (id, queue, task, reason, died_at, payload)
    SELECT 'cp-' || i, 'cp', 'cp.half', 'Traceback (most recent call last):\n  File "/srv/app/cp.py", line 3, in half\nValueError: card ' || i || ' declined', ${now}, ${msg("'cp-' || i")} FROM g WHERE i % 10 IN (5, 6)`);
  db.exec(`WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < ${n - 1})
    INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, deliveries, created_at, payload)
    SELECT 'cp-' || i, 'cp', 'cp.half', 1, 0, ${now}, 0, ${now}, ${msg("'cp-' || i")} FROM g WHERE i % 10 = 7`);
  db.close();
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-bench-campaigns-'));
  const url = `sqlite:///${path.join(dir, 'broker.sqlite3')}`;
  const env = potatoqEnv(url);
  try {
    potatoqCli(env, ['migrate']);
    seed(path.join(dir, 'broker.sqlite3'), BIG);
    const adapter = createSqliteAdapter({ id: 'b', name: 'b', url, readOnly: false, options: {} });
    const state = counted(await openStateDbForTests(path.join(dir, 'state.sqlite3')));
    const store = createCampaignStore(state);
    const base = { broker: 'b', action: 'replay', who: 'bench', reason: null, auditId: null, parent: null, filter: null };
    const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `cp-${i}`, before: null }));
    const t0 = performance.now();
    const big = await store.create(base, ids(BIG));
    log(`campaign of ${BIG.toLocaleString()} tasks written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const small = await store.create(base, ids(SMALL));
    let clock = Date.now();
    for (const [label, id] of [
      [`${SMALL.toLocaleString()} tasks`, small],
      [`${BIG.toLocaleString()} tasks`, big],
    ] as const) {
      const rows: Array<{ broker: number; store: number; ms: number; looked: number }> = [];
      for (let p = 0; p < POLLS; p++) {
        clock += MIN_POLL_MS;
        [brokerStatements, state.n] = [0, 0];
        const t = performance.now();
        const r = await pollCampaign(store, id, { fates: async (_b, batch) => adapter.fate!(batch), now: () => clock });
        rows.push({ broker: brokerStatements, store: state.n, ms: performance.now() - t, looked: 'looked' in r ? r.looked : 0 });
      }
      const max = (k: 'broker' | 'store' | 'ms') => Math.max(...rows.map((r) => r[k]));
      const med = (k: 'ms') => [...rows.map((r) => r[k])].sort((a, b) => a - b)[Math.floor(rows.length / 2)]!;
      log(
        `${label}: ${POLLS} polls, ${rows[0]!.looked} tasks each; broker statements per poll at most ${max('broker')}, state-store statements at most ${max('store')}; ${med('ms').toFixed(1)} ms median, ${max('ms').toFixed(1)} ms worst`,
      );
    }
    const c = (await store.get(big))!;
    log(`roll-up of the ${BIG.toLocaleString()}-task campaign after ${POLLS} polls: ${JSON.stringify(c.rollup)}`);
    const cli = [0, 1, 2].map(() => timeCli(env, ['result', 'cp-1'])).sort((a, b) => a - b)[1]!;
    log(`potatoq's own \`potatoq result cp-1\` (one id, median of 3): ${cli.toFixed(0)} ms`);
    await adapter.close();
    await state.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
